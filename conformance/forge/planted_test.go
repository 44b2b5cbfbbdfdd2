package forge_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// renamesCodes answers every refusal of h with the target's own codes
// (FORGE-REF-ERROR-CODES is the kit's choice), keeping the codes the seed
// itself names.
func renamesCodes(h http.Handler) http.Handler {
	fixed := map[string]bool{"NICKNAME_TAKEN": true, "IDEMPOTENCY_KEY_REUSED": true}
	return tamper{h: h, resp: func(_ *http.Request, _ *int, m map[string]any) {
		if e, ok := m["error"].(map[string]any); ok {
			if c, _ := e["code"].(string); c != "" && !fixed[c] {
				e["code"] = "E_" + c
			}
		}
	}}
}

// TestAReferenceDeviationNeverMasksAMust plants, in one broken target
// each, a departure from a REFERENCE choice next to a MUST violation that
// a check evaluates after (or beside) the REFERENCE condition: the run
// must still fail naming the MUST rule, not end on the warning (issue 25
// class 6).
func TestAReferenceDeviationNeverMasksAMust(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rule, planted string
		target        func() http.Handler
		authoring     bool
	}{
		{"FORGE-VALID-EXAMPLES", "FORGE-REF-ERROR-CODES", func() http.Handler { return renamesCodes(acceptsCode("EXAMPLE_MISMATCH")) }, false},
		{"FORGE-DSL-OVERFLOW-REJECTED", "FORGE-REF-ERROR-CODES", func() http.Handler { return renamesCodes(ref(dsl.Dialect{SafeBelowMax: true})) }, false},
		{"FORGE-IDEMPOTENCY-KEY-FORMAT", "FORGE-REF-ERROR-CODES", func() http.Handler { return renamesCodes(keysWithin(9, 128)) }, false},
		{"FORGE-RANK-PROGRESS", "FORGE-REF-LEADERBOARD-SHAPE", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				delete(m, "recentSolves")
				delete(m, "firstSolves")
				s := m["solvers"].([]any)
				for i, row := range s {
					row.(map[string]any)["rank"] = len(s) - i
				}
			})
		}, false},
		{"FORGE-SESSION-CURRENT", "FORGE-REF-SESSION-LEVELID", func() http.Handler {
			inner := answers(http.MethodPost, "/api/sessions", func(_ *int, m map[string]any) {
				if p, ok := m["position"].(float64); ok {
					m["position"] = p + 3
				}
			})
			return tamper{h: inner, req: func(r *http.Request, body []byte) []byte {
				if is(r, http.MethodPost, "/api/sessions") && strings.Contains(string(body), "levelId") {
					return []byte(`{}`) // a named level is ignored, not refused
				}
				return body
			}}
		}, false},
	}
	for _, c := range cases {
		t.Run(c.rule+"+"+c.planted, func(t *testing.T) {
			t.Parallel()
			hc := harness.Case{Name: c.rule + " beside " + c.planted, Rule: c.rule, Target: c.target(), Checks: 5}
			if c.authoring {
				hc.Settings = suite.Settings{"allow-authoring": "true"}
			}
			if err := harness.Check(forge.Protocol(), hc); err != nil {
				t.Error(err)
			}
		})
	}
}
