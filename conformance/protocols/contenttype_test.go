package protocols

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
)

// TestReferenceServersAnswerOneContentType holds every reference server to
// one convention: JSON answers say Content-Type: application/json, with no
// charset parameter (JSON is UTF-8 by definition, RFC 8259), on success and
// on refusal alike. Answers that are not JSON at all are not judged here.
func TestReferenceServersAnswerOneContentType(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{Seed: 1}))
		for _, path := range []string{"", "/no-such-endpoint"} {
			resp, err := http.Get(srv.URL + p.BasePath + path)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !json.Valid(body) {
				continue // not a JSON answer (a bare 404 of a mux): no JSON convention applies
			}
			if got := resp.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("%s GET %s%s: status %d, Content-Type %q, want application/json", p.Name, p.BasePath, path, resp.StatusCode, got)
			}
		}
		srv.Close()
	}
}
