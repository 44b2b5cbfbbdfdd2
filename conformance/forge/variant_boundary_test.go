package forge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// boundaryRules are the rules broken_boundary_test.go breaks one by one.
var boundaryRules = []string{"FORGE-KEY-UNRECOVERABLE", "FORGE-BEARER", "FORGE-CHAIN-LINEAR", "FORGE-NO-DIFFICULTY-TIERS",
	"FORGE-NO-LEVEL-SELECTION", "FORGE-SESSION-PUBLIC-VIEW", "FORGE-LEGACY-DIFFICULTY-SCHEMA", "FORGE-SERVER-POSITION",
	"FORGE-PUBLISHED-IMMUTABLE"}

// faithfulBoundaries takes the choices those checks leave open the other
// way: its description lists a public profile read that needs no key, it
// refuses any query string on a session opening, the registration names
// the account's tier, progress names the position last cleared (no
// content), and a package naming a position is accepted at the tail with
// the position ignored.
func faithfulBoundaries() http.Handler {
	return tamper{h: ref(dsl.Dialect{}),
		skip: func(r *http.Request, body []byte) (int, any, bool) {
			switch {
			case r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/api/agents/"):
				return 200, map[string]any{"agentId": strings.TrimPrefix(r.URL.Path, "/api/agents/"), "practice": true}, true
			case is(r, http.MethodPost, "/api/sessions") && r.URL.RawQuery != "":
				return 400, map[string]any{"message": "no query parameters here"}, true
			}
			return 0, nil, false
		},
		req: func(r *http.Request, body []byte) []byte {
			var p map[string]any
			if !is(r, http.MethodPost, "/api/levels") || json.Unmarshal(body, &p) != nil || p["position"] == nil {
				return body
			}
			delete(p, "position") // ignored: the server assigns the tail
			out, _ := json.Marshal(p)
			return out
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			switch {
			case is(r, http.MethodGet, "/openapi.json"):
				if paths, ok := m["paths"].(map[string]any); ok {
					paths["/api/agents/{agentId}"] = map[string]any{"get": map[string]any{"summary": "A public profile",
						"responses": map[string]any{"200": map[string]any{"description": "the profile"}}}}
				}
			case is(r, http.MethodPost, "/api/agents"):
				m["tier"] = "practice"
			case is(r, http.MethodGet, "/api/progress"):
				if c, _ := m["chainProgress"].(float64); c > 0 {
					m["lastCleared"] = map[string]any{"position": c}
				}
			}
		}}
}

// A faithful deployment that takes the boundary checks' open choices the
// other way passes them, each decided rather than skipped.
func TestFaithfulBoundariesPass(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(faithfulBoundaries())
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{forge.Protocol()},
		Target: srv.URL, Seed: 11, Rules: boundaryRules, NoProperties: true, CaseDir: t.TempDir(),
		Settings: suite.Settings{"allow-authoring": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	decided := map[string]bool{}
	for _, r := range rep.Results {
		// Its error bodies are not the kit's: a REFERENCE warning only.
		if r.Status != verdict.Pass && (r.Status != verdict.Warn || !strings.HasPrefix(r.FailedRule, "FORGE-REF-")) {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
		for _, id := range r.Rules {
			decided[id] = true
		}
	}
	for _, id := range boundaryRules {
		if !decided[id] {
			t.Errorf("no check of %s ran", id)
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d", rep.ExitCode())
	}
}
