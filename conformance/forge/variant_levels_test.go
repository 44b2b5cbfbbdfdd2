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

// levelRules are the rules whose checks once demanded what the contract
// leaves open: a refused levelId and the numbering of shared ranks.
var levelRules = []string{"FORGE-SESSION-EMPTY-BODY", "FORGE-RANK-TIES"}

// faithfulLevels takes those choices the other way: a session body naming
// a level is read as {} (the levelId ignored, the current level opened),
// and solver ranks are numbered densely (1, 1, 2).
func faithfulLevels(h http.Handler) http.Handler {
	return tamper{h: h,
		req: func(r *http.Request, body []byte) []byte {
			if is(r, http.MethodPost, "/api/sessions") && strings.Contains(string(body), "levelId") {
				return []byte(`{}`)
			}
			return body
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if is(r, http.MethodGet, "/api/leaderboards") {
				denseRanks(m)
			}
		}}
}

// denseRanks renumbers the solvers 1, 1, 2 where the reference says
// 1, 1, 3.
func denseRanks(m map[string]any) {
	rows, _ := m["solvers"].([]any)
	rank, last := 0, -1.0
	for _, row := range rows {
		s := row.(map[string]any)
		if p, _ := s["chainProgress"].(float64); p != last {
			rank, last = rank+1, p
		}
		s["rank"] = rank
	}
}

// brokenLevels is faithfulLevels broken on rule as well: every solver gets
// its own rank (FORGE-RANK-TIES), or a levelId opens the level after the
// current one (FORGE-SESSION-EMPTY-BODY).
func brokenLevels(rule string) http.Handler {
	if rule == "FORGE-SESSION-EMPTY-BODY" {
		return tamper{h: honoursLevelID(), resp: func(r *http.Request, _ *int, m map[string]any) {
			if is(r, http.MethodGet, "/api/leaderboards") {
				denseRanks(m)
			}
		}}
	}
	return tamper{h: faithfulLevels(ref(dsl.Dialect{})), resp: func(r *http.Request, _ *int, m map[string]any) {
		if !is(r, http.MethodGet, "/api/leaderboards") {
			return
		}
		rows, _ := m["solvers"].([]any)
		for i, row := range rows {
			row.(map[string]any)["rank"] = i + 1
		}
	}}
}

func runLevels(t *testing.T, h http.Handler) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{forge.Protocol()},
		Target: srv.URL, Seed: 11, Rules: levelRules, NoProperties: true, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFaithfulLevelsFailNothing: a deployment that ignores a levelId and
// numbers shared ranks densely fails no MUST rule; it is decided and
// warned on the two REFERENCE choices it departs from.
func TestFaithfulLevelsFailNothing(t *testing.T) {
	t.Parallel()
	rep := runLevels(t, faithfulLevels(ref(dsl.Dialect{})))
	warned := map[string]bool{}
	for _, r := range rep.Results {
		if r.Status != verdict.Pass && r.Status != verdict.Warn {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
		for _, w := range append(r.Warnings, r.Message) {
			id, _, _ := strings.Cut(w, ":")
			warned[id] = warned[id] || r.Status == verdict.Warn
		}
	}
	for _, id := range []string{"FORGE-REF-SESSION-LEVELID", "FORGE-REF-RANK-NUMBERING"} {
		if !warned[id] {
			t.Errorf("the departure from %s was not reported", id)
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d", rep.ExitCode())
	}
}

// TestReferenceDeviationNeverHidesAMustFailure: the same deployment,
// broken on a MUST rule too, fails naming it: the REFERENCE departure on
// the way never ends the check first.
func TestReferenceDeviationNeverHidesAMustFailure(t *testing.T) {
	t.Parallel()
	for _, rule := range levelRules {
		t.Run(rule, func(t *testing.T) {
			rep := runLevels(t, brokenLevels(rule))
			if !rep.Failed(rule) || rep.ExitCode() != 1 {
				for _, r := range rep.Results {
					raw, _ := json.Marshal(r.Warnings)
					t.Logf("%s: %s %s %s %s", r.Name, r.Status, r.FailedRule, r.Message, raw)
				}
				t.Fatalf("a faithful layout hid a deployment breaking %s", rule)
			}
		})
	}
}
