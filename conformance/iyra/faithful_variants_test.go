package iyra_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
)

// iyraIDs respells the reference's identifiers: sessions, agents and
// challenges carry other prefixes; the contract fixes none of them.
var iyraIDs = [][2]string{{`"ses_`, `"session-`}, {`/sessions/ses_`, `/sessions/session-`}, {`"agt_`, `"agent-`}, {`"chl_`, `"challenge-`}}

// respellIDs replaces each pair's first spelling by its second (or back).
func respellIDs(body []byte, back bool) []byte {
	for _, p := range iyraIDs {
		from, to := p[0], p[1]
		if back {
			from, to = to, from
		}
		body = bytes.ReplaceAll(body, []byte(from), []byte(to))
	}
	return body
}

// iyraFaithful are deployments that take a choice the contract leaves open
// another way than the reference; each must pass the live suite.
func iyraFaithful() map[string]http.Handler {
	return map[string]http.Handler{
		"other identifier formats": harness.Respell(ref(), harness.Respelling{
			Path:    func(p string) string { return strings.Replace(p, "/sessions/session-", "/sessions/ses_", 1) },
			Request: func(b []byte) []byte { return respellIDs(b, true) },
			Body:    func(b []byte) []byte { return respellIDs(b, false) },
		}),
		"200 where the reference creates with 201": harness.Respell(ref(), harness.Respelling{
			Status: func(_ *http.Request, st int) int {
				if st == http.StatusCreated {
					return http.StatusOK
				}
				return st
			},
		}),
		"extra top-level fields in every answer": harness.Responses(ref(), func(_ *http.Request, _ *int, m map[string]any) {
			m["x_request_id"], m["server_time"] = "req-42", "2026-12-02T00:00:00Z"
		}),
		"other error message texts": harness.Responses(ref(), func(_ *http.Request, st *int, m map[string]any) {
			if _, ok := m["message"]; ok && *st >= 400 {
				m["message"] = "Request refused; see code."
			}
		}),
		"a charset in the content type": harness.Respell(ref(), harness.Respelling{ContentType: "application/json; charset=utf-8"}),
		"the server's own field order":  harness.Respell(ref(), harness.Respelling{Body: harness.ReversedTopKeys}),
	}
}

// newLoopback serves h on loopback for the test and returns its URL.
func newLoopback(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestFaithfulIyraDeploymentsPass holds the live suite to accepting every
// faithful variant: no check fails or errs.
func TestFaithfulIyraDeploymentsPass(t *testing.T) {
	t.Parallel()
	for name, h := range iyraFaithful() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := newLoopback(t, h)
			harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()}, Target: srv, Seed: 11, Checks: 3}, 120)
		})
	}
}
