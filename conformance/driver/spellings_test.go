package driver_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
)

// TestEverySpellingOfAKeyIsRedacted: a key learned decoded is hidden however
// a target or a URL spells it.
func TestEverySpellingOfAKeyIsRedacted(t *testing.T) {
	const key = "aa/live+0123 é€abcdef"
	s := &driver.Secrets{}
	s.Learn([]byte(`{"api_key":"aa\/live+0123 \u00e9\u20ACabcdef"}`))
	spellings := map[string]string{
		"decoded":               key,
		"slash escaped":         `aa\/live+0123 é€abcdef`,
		"every char \\u, lower": `\u0061\u0061\u002f\u006c\u0069\u0076\u0065\u002b\u0030\u0031\u0032\u0033\u0020\u00e9\u20ac\u0061\u0062\u0063\u0064\u0065\u0066`,
		"some chars \\u, upper": `a\u0061/live\u002B0123 \u00E9\u20ACabcdef`,
		"query escaped":         url.QueryEscape(key),
		"path escaped":          url.PathEscape(key),
		"lower-case percent":    "aa%2flive%2b0123+%c3%a9%e2%82%acabcdef",
		"basic, std":            base64.StdEncoding.EncodeToString([]byte("agent:" + key)),
		"basic, url":            base64.URLEncoding.EncodeToString([]byte("u:" + key + "x")),
		"basic, two-byte user":  base64.StdEncoding.EncodeToString([]byte("ab:" + key)),
	}
	for name, text := range spellings {
		got := s.Redact("before " + text + " after")
		assert.Contains(t, got, driver.Redacted, name)
		assert.NotContains(t, got, "abcdef", name)
		assert.NotContains(t, got, "0123", name)
	}
	assert.Equal(t, `{"x":"aa\/live"}`, s.Redact(`{"x":"aa\/live"}`), "text that is not the key is left alone")
}

// TestASplitOrDoublyEscapedKeyIsRedacted: a key a target breaks inside a
// JSON string (an escaped line break, a tab, a zero-width space), escapes
// twice, writes as HTML character references or in hex is still found in
// the decoded view, and the text around it survives.
func TestASplitOrDoublyEscapedKeyIsRedacted(t *testing.T) {
	const key = "ak_live_0123456789abcdef"
	s := &driver.Secrets{}
	s.Add(key)
	spellings := map[string]string{
		"split by \\n":          `{"error":"bad key ak_live_01234\n56789abcdef"}`,
		"split by \\r\\n":       `{"error":"ak_live_0123\r\n456789abcdef"}`,
		"split by \\t":          `{"error":"ak_live_0123\t456789abc\tdef"}`,
		"split by \\u000a":      `{"error":"ak_live_0123\u000A456789abcdef"}`,
		"split by a raw break":  "observed: ak_live_0123\n456789abcdef",
		"split by a space":      `{"error":"ak_live_0123 456789abcdef"}`,
		"split by zero width":   `{"error":"ak_live_0123\u200b456789ab\u00adcdef"}`,
		"raw zero width":        "ak_live_0123\u200b456789abcdef",
		"\\u escapes mixed":     `{"m":"\u0061k\u005Flive_0123456789ab\u0063def"}`,
		"doubly escaped":        `{"m":"{\"k\":\"\\u0061k_live_0123\\n456789abcdef\"}"}`,
		"go quoted":             `"ak_live_0123\x34\x35\x36789abcdef"`,
		"html references":       `ak_live_0123&#52;&#x35;6789abcdef`,
		"hex":                   "616b5f6c6976655f30313233343536373839616263646566",
		"upper hex":             "616B5F6C6976655F30313233343536373839616263646566",
		"percent and a \\n":     `ak%5Flive%5F0123\n456789abcdef`,
		"surrounded by escapes": `{"m":"\n\tak_live_0123456789abcdef\n"}`,
	}
	for name, text := range spellings {
		got := s.Redact("before " + text + " after")
		assert.Contains(t, got, driver.Redacted, name)
		assert.NotContains(t, got, "abcdef", name)
		assert.NotContains(t, got, "cdef", name)
		assert.True(t, strings.HasPrefix(got, "before ") && strings.HasSuffix(got, " after"), "%s: %q", name, got)
	}
	plain := `{"error":"ak_live_0123\n\"not the key\""}`
	assert.Equal(t, plain, s.Redact(plain), "a part of the key alone is left alone")
}

// TestARedactedJSONBodyStaysJSON: replacing a key found in a decoded
// string keeps the document valid JSON.
func TestARedactedJSONBodyStaysJSON(t *testing.T) {
	const key = "ak_live_0123456789abcdef"
	s := &driver.Secrets{}
	s.Add(key)
	body := `{"a":"x ak_live_0\u0031234\n56789abcdef y","b":["\u0061k_live_0123456789abcdef"],"c":1}`
	got := s.Redact(body)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(got), &v), got)
	assert.Equal(t, "x "+driver.Redacted+" y", v["a"])
	assert.Equal(t, []any{driver.Redacted}, v["b"])
}

// TestEveryCredentialSentIsASecret: what a request carries as a
// credential (a made-up bearer key, an X-Api-Key, a cookie) is redacted
// when a target echoes it, split or not.
func TestEveryCredentialSentIsASecret(t *testing.T) {
	s := &driver.Secrets{}
	s.LearnHeader(http.Header{"Authorization": {"Bearer made_up_key_0123456789"}, "X-Api-Key": {"xk_0123456789"},
		"Cookie": {"sid=cookie_0123456789; theme=dark"}, "Accept": {"application/json_0123"}})
	got := s.Redact(`{"m":"made_up_key_01234\n56789 xk_0123456789 cookie_01\u00323456789 application/json_0123"}`)
	assert.NotContains(t, got, "56789 ")
	assert.NotContains(t, got, "xk_0")
	assert.NotContains(t, got, "cookie_")
	assert.Contains(t, got, "application/json_0123", "a header that is no credential teaches nothing")
}

// TestAKeyUnderAnEscapedFieldNameIsLearned: a target that spells the
// credential's field name in \u escapes still has its key learned.
func TestAKeyUnderAnEscapedFieldNameIsLearned(t *testing.T) {
	s := &driver.Secrets{}
	s.Learn([]byte(`{"a\u0070i\u004Be\u0079":"ak_escaped_0123456789"}`))
	assert.NotContains(t, s.Redact("key ak_escaped_0123456789"), "0123456789")
}

// TestAKeyInAHeaderNameIsRedacted: a recorded header whose name holds a
// key shows neither the key nor its value's key.
func TestAKeyInAHeaderNameIsRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["x-echo-ak_live_0123456789"] = []string{"ak_live_0123456789"}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	rec := &driver.Recorder{}
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	d.Secrets().Add("ak_live_0123456789")
	_, err := d.WithRecorder(rec).Do(context.Background(), driver.Request{Method: http.MethodGet, Path: "/"})
	require.NoError(t, err)
	for name, v := range rec.Exchanges()[0].RespHeader {
		assert.NotContains(t, strings.ToLower(name+v), "0123456789")
	}
}
