package skeleton_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/reference/skeleton"
)

// TestCodedMuxAnswersUnroutedRequestsWithCodedJSON: unknown paths and
// methods get the policy's coded JSON errors; routed requests are untouched.
func TestCodedMuxAnswersUnroutedRequestsWithCodedJSON(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /things/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(r.PathValue("id")))
	})
	h := skeleton.CodedMux(mux)
	for _, c := range []struct {
		method, path string
		status       int
		code, allow  string
	}{
		{"GET", "/nowhere", 404, "not_found", ""},
		{"DELETE", "/things/7", 405, "method_not_allowed", "GET, HEAD"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		var body skeleton.CodedError
		if rec.Code != c.status || rec.Header().Get("Content-Type") != "application/json" ||
			json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Code != c.code || body.Message == "" {
			t.Errorf("%s %s: %d %q %s", c.method, c.path, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		if got := rec.Header().Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/things/7", nil))
	if rec.Code != 200 || rec.Body.String() != "7" {
		t.Errorf("routed request: %d %s", rec.Code, rec.Body)
	}
}
