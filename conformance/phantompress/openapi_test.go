package phantompress

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/conformance/suite"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
	"github.com/agentgames/conformance/spec"
)

func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	raw, err := spec.OpenAPI("phantom-press")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := oas.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestOpenAPIDescribesTheReference sends one request of every kind to the
// reference, success and error alike, and validates each response against
// the document with openapi3filter.
func TestOpenAPIDescribesTheReference(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	ref := pp.New(suite.ReferenceConfig{Seed: 1})
	send := func(method, template, path, key string, body any) []byte {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req := httptest.NewRequest(method, pp.BasePath+path, rd)
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, req)
		item := doc.Paths.Value(template)
		if item == nil {
			t.Fatalf("no path %s in the document", template)
		}
		op := item.GetOperation(method)
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req,
				Route: &routers.Route{Spec: doc, Path: template, PathItem: item, Method: method, Operation: op}},
			Status: rec.Code, Header: rec.Header(), Options: &openapi3filter.Options{IncludeResponseStatus: true},
		}
		in.SetBodyBytes(rec.Body.Bytes())
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			t.Errorf("%s %s -> %d does not match the document: %v\n%s", method, path, rec.Code, err, rec.Body.String())
		}
		return rec.Body.Bytes()
	}
	send("GET", "/", "", "", nil)
	send("POST", "/register", "/register", "", map[string]string{})
	var reg struct {
		APIKey string `json:"api_key"`
	}
	json.Unmarshal(send("POST", "/register", "/register", "", map[string]string{"name": "oas"}), &reg)
	key := reg.APIKey
	send("POST", "/runs", "/runs", "", map[string]int{"budget_turns": 5})
	send("POST", "/runs", "/runs", key, map[string]int{"budget_turns": 0})
	var c struct {
		RunID string `json:"run_id"`
	}
	json.Unmarshal(send("POST", "/runs", "/runs", key, map[string]int{"budget_turns": 30}), &c)
	run := "/runs/" + c.RunID
	act := func(action, arg string) {
		send("POST", "/runs/{id}/action", run+"/action", key, map[string]string{"action": action, "arg": arg})
	}
	for _, a := range [][2]string{{"look", ""}, {"read", "d1"}, {"read", "d1"}, {"interview", "w1 t1"}, {"answer", "q1 真 断言 d1"},
		{"answer", "q1 真 断言"}, {"publish", ""}, {"status", ""}, {"comment", "メモ"}} {
		act(a[0], a[1])
	}
	for _, q := range []string{"q1", "q2", "q3", "q4", "q5"} {
		act("answer", q+" 裏取り不能 留保")
	}
	act("publish", "")
	act("dance", "")
	send("POST", "/runs/{id}/action", "/runs/run_000000000000/action", key, map[string]string{"action": "look"})
	send("GET", "/runs/{id}", run, "", nil)
	send("POST", "/runs/{id}/extend", run+"/extend", key, map[string]int{"turns": 5})
	send("POST", "/runs/{id}/extend", run+"/extend", key, map[string]int{"turns": 500})
	send("POST", "/runs/{id}/review", run+"/review", key, map[string]string{"text": "面白かった"})
	send("POST", "/runs/{id}/review", run+"/review", key, map[string]string{"text": "二回目"})
	send("POST", "/runs/{id}/visibility", run+"/visibility", key, map[string]string{"visibility": "hidden"})
	send("GET", "/runs/{id}", run, "", nil)
	send("POST", "/runs/{id}/visibility", run+"/visibility", key, map[string]string{"visibility": "public"})
	send("GET", "/leaderboard", "/leaderboard", "", nil)
	send("GET", "/runs", "/runs?recent=5", "", nil)
	send("GET", "/runs", "/runs?recent=0", "", nil)
	ref.SetQuotaUnavailable(true)
	act("look", "")
	ref.SetQuotaUnavailable(false)
	ref.SpendWrites(key, 1000)
	act("look", "")
}

// TestErrorStatusesAreJSON checks unknown paths and wrong methods answer a
// JSON error body too.
func TestErrorStatusesAreJSON(t *testing.T) {
	t.Parallel()
	ref := pp.New(suite.ReferenceConfig{Seed: 1})
	for _, c := range []struct {
		method, path string
		status       int
	}{{"GET", pp.BasePath + "/nope", 404}, {"DELETE", pp.BasePath + "/runs", 405}, {"GET", "/elsewhere", 404}} {
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		var e struct{ Code, Message string }
		if rec.Code != c.status || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Code == "" || e.Message == "" {
			t.Errorf("%s %s: %d %s", c.method, c.path, rec.Code, rec.Body)
		}
	}
	_ = http.StatusOK
}
