package phantompress

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
)

// ppIDs respells the reference's agent IDs, which the seed leaves open (it
// fixes run_<12hex> and flib_ keys, so those keep their spelling).
var ppIDs = [][2]string{{`"agt_`, `"agent:`}}

// respellPP replaces each pair's first spelling by its second (or back).
func respellPP(body []byte, back bool) []byte {
	for _, p := range ppIDs {
		from, to := p[0], p[1]
		if back {
			from, to = to, from
		}
		body = bytes.ReplaceAll(body, []byte(from), []byte(to))
	}
	return body
}

// ppFaithful are deployments that take a choice the seed leaves open
// another way than the reference; each must pass the live suite.
func ppFaithful() map[string]http.Handler {
	return map[string]http.Handler{
		"another agent ID format": harness.Respell(ppRef(), harness.Respelling{
			Request: func(b []byte) []byte { return respellPP(b, true) },
			Body:    func(b []byte) []byte { return respellPP(b, false) },
		}),
		"200 where the reference creates with 201": harness.Respell(ppRef(), harness.Respelling{
			Status: func(_ *http.Request, st int) int {
				if st == http.StatusCreated {
					return http.StatusOK
				}
				return st
			},
		}),
		"extra top-level fields in every answer": harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
			m["x_request_id"], m["server_time"] = "req-42", "2026-12-02T09:00:00+09:00"
		}),
		"other error texts": harness.Responses(ppRef(), func(_ *http.Request, st *int, m map[string]any) {
			if *st >= 400 {
				for _, k := range []string{"message", "error"} {
					if _, ok := m[k]; ok {
						m[k] = "この要求は受け付けられません。"
					}
				}
			}
		}),
		"a charset in the content type": harness.Respell(ppRef(), harness.Respelling{ContentType: "application/json; charset=utf-8"}),
		"the server's own field order":  harness.Respell(ppRef(), harness.Respelling{Body: harness.ReversedTopKeys}),
	}
}

// TestFaithfulPhantomPressDeploymentsPass holds the live suite to
// accepting every faithful variant: no check fails or errs.
func TestFaithfulPhantomPressDeploymentsPass(t *testing.T) {
	t.Parallel()
	for name, h := range ppFaithful() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptestServer(t, h)
			harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{Protocol}, Target: srv, Seed: 11, Checks: 3}, 120)
		})
	}
}

// httptestServer serves h on loopback for the test and returns its URL.
func httptestServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
