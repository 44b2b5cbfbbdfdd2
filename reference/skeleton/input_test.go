package skeleton_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/reference/skeleton"
)

type extendBody struct {
	Turns *int    `json:"turns"`
	Note  *string `json:"note"`
}

func TestTheInputPolicyRefusesWithACode(t *testing.T) {
	cases := map[string]string{
		`{"turns":1,"turns":9}`:              skeleton.CodeDuplicateKey,
		`{"turns":1,"extra":true}`:           skeleton.CodeUnknownField,
		"{\"note\":\"\xff\"}":                skeleton.CodeInvalidUTF8,
		`{"turns":"many"}`:                   skeleton.CodeWrongType,
		`{"turns":9223372036854775808}`:      skeleton.CodeWrongType,
		`{"turns":1} {"turns":2}`:            skeleton.CodeInvalidJSON,
		`[1]`:                                skeleton.CodeNotAnObject,
		`{"turns":`:                          skeleton.CodeInvalidJSON,
		strings.Repeat("[", 100000):          skeleton.CodeInvalidJSON,
		`{"note":{"a":1,"b":{"a":1,"a":2}}}`: skeleton.CodeDuplicateKey,
	}
	for body, code := range cases {
		var v extendBody
		err := skeleton.DecodeStrict([]byte(body), &v)
		if err == nil || err.Code != code || err.Status != http.StatusBadRequest {
			t.Errorf("%.40q: got %+v, want code %s", body, err, code)
			continue
		}
		for _, goWord := range []string{"*int", "int64", "json:", "Go ", "struct", "reflect"} {
			if strings.Contains(err.Message, goWord) {
				t.Errorf("%.40q: message %q shows a Go type or package (%s)", body, err.Message, goWord)
			}
		}
	}
	var v extendBody
	if err := skeleton.DecodeStrict([]byte(`{"turns": 3}`), &v); err != nil || *v.Turns != 3 {
		t.Fatalf("a good body: %v", err)
	}
}

func TestReadBodyRefusesTooLargeAs413(t *testing.T) {
	r := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 11)))
	if _, err := skeleton.ReadBody(r, 10); err == nil || err.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("got %v", err)
	}
}

// TestBufferedWritesOnlyAfterTheHandlerReturned: the answer reaches the
// client as the handler wrote it, after the handler returned.
func TestBufferedWritesOnlyAfterTheHandlerReturned(t *testing.T) {
	returned := false
	h := skeleton.Buffered(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-A", "1")
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("body"))
		if _, ok := w.(*httptest.ResponseRecorder); ok {
			t.Error("the handler wrote to the client directly")
		}
		returned = true
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if !returned || rec.Code != http.StatusTeapot || rec.Body.String() != "body" || rec.Header().Get("X-A") != "1" {
		t.Fatalf("got %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
}

func TestWriteErrorIsCoded(t *testing.T) {
	rec := httptest.NewRecorder()
	skeleton.WriteError(rec, 400, "bad", "a <b> c")
	if got := rec.Body.String(); got != `{"code":"bad","message":"a <b> c"}`+"\n" {
		t.Fatalf("got %q", got)
	}
}

// TestCheckFrameRefusesWhatAJSONProtocolDoesNotSpeak: a binary frame, a
// text frame that is not UTF-8, not an object or repeats a key is refused
// with its code; a JSON object text frame passes.
func TestCheckFrameRefusesWhatAJSONProtocolDoesNotSpeak(t *testing.T) {
	cases := []struct {
		binary bool
		data   string
		code   string
	}{
		{false, `{"t":"response","id":"1","move":{"card":3}}`, ""},
		{true, `{"t":"response","id":"1","move":{"card":3}}`, skeleton.CodeBinaryFrame},
		{false, "{\"t\":\"ping\",\"note\":\"caf\xe9\"}", skeleton.CodeInvalidUTF8},
		{false, `{"t":"response","move":{"card":3},"move":{"card":9}}`, skeleton.CodeDuplicateKey},
		{false, `["t","ping"]`, skeleton.CodeNotAnObject},
		{false, `{"t":"ping"} {"t":"ping"}`, skeleton.CodeInvalidJSON},
	}
	for _, c := range cases {
		err := skeleton.CheckFrame(c.binary, []byte(c.data))
		if c.code == "" {
			assert.Nil(t, err, c.data)
			continue
		}
		if assert.NotNil(t, err, c.data) {
			assert.Equal(t, c.code, err.Code, c.data)
		}
	}
}
