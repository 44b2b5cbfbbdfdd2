package pyyol_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// TestAMissingHealthRouteIsUncheckedNotFailed: an agent without /health
// beside /turn leaves PYYOL-PUSH-HEALTH and the liveness probe of
// PYYOL-PUSH-SIBLINGS unchecked (its signed siblings, served, pass),
// also when the origin's root answers a /health of another service; only
// the agent's own liveness answer at the root fails the sibling rule
// (TestBrokenAgentsFailTheirRule).
func TestAMissingHealthRouteIsUncheckedNotFailed(t *testing.T) {
	for name, root := range map[string]http.HandlerFunc{
		"nothing at the root":         http.NotFound,
		"another service at the root": func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(`{"ok":true}`)) },
	} {
		t.Run(name, func(t *testing.T) {
			ref := agent.New(agent.Options{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case agent.BasePath + "/health":
					http.NotFound(w, r)
				case "/health":
					root(w, r)
				default:
					ref.ServeHTTP(w, r)
				}
			}))
			defer srv.Close()
			rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "PYYOL-PUSH-SIBLINGS", pushSettings)
			if rep.ExitCode() == 1 || len(rep.Results) == 0 {
				t.Fatalf("exit %d, failed %v: a missing /health is no verdict", rep.ExitCode(), failedRules(rep))
			}
			for _, r := range rep.Results {
				if r.Status == verdict.Pass && r.Name != "the unsigned liveness probe" {
					continue // a sibling the agent serves beside /turn
				}
				route, ok := verdict.NotServedRoute(r.Message)
				if r.Status != verdict.Skip || !ok || route != "GET "+agent.BasePath+"/health" {
					t.Errorf("%s %q: %s; want unchecked, naming GET %s/health", r.Status, r.Name, r.Message, agent.BasePath)
				}
			}
		})
	}
}
