package bounty_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	rbounty "github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// levelRules are the rules whose checks once demanded what the contract
// leaves open (a 410 on every round-bound endpoint of a closed round, the
// leaderboard's field names) or read something whose shape is the kit's
// choice on the way to a MUST condition (the racing combines' ledger, the
// metrics' field names).
var levelRules = []string{"BOUNTY-STALE-410", "BOUNTY-LEADERBOARD", "BOUNTY-COMBINE-RACE", "BOUNTY-METRICS-COUNTS"}

// faithfulEdit takes those open choices the other way: a closed round's
// puzzle, solve, combine and peers answer 409 round_closed (the manifest
// keeps its 410), and the leaderboard lists its standings under
// "leaderboard" with camelCase names, the keys in another order.
func faithfulEdit(r *http.Request, status *int, m map[string]any) {
	if *status == http.StatusGone && !strings.HasSuffix(r.URL.Path, "/manifest") {
		*status = http.StatusConflict
	}
	if !strings.HasSuffix(r.URL.Path, "/leaderboard.json") {
		return
	}
	rows, _ := m["standings"].([]any)
	delete(m, "standings")
	renamed := make([]any, 0, len(rows))
	for _, row := range rows {
		s, _ := row.(map[string]any)
		renamed = append(renamed, map[string]any{"solves": s["accepted_solves"], "wins": s["rounds_won"],
			"playEarned": s["play_earned"], "agentId": s["agent_id"], "rank": s["rank"]})
	}
	m["leaderboard"] = renamed
}

// variantTarget serves the reference behind faithfulEdit, broken on rule
// ("none" for none), and returns its base URL.
func variantTarget(t *testing.T, rule string) string {
	e := rbounty.New(3, time.Now)
	e.Break(rule)
	srv := httptest.NewServer(harness.Responses(server.NewServer(e), faithfulEdit))
	t.Cleanup(srv.Close)
	return srv.URL + server.BasePath
}

func runLevels(t *testing.T, target string) *verdict.Report {
	t.Helper()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()},
		Target: target, Rules: levelRules, Seed: 11, NoProperties: true, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFaithfulVariantFailsNoMustRule: a platform that takes the open
// choices the other way fails nothing; it is decided (warned on the
// REFERENCE choices it departs from), never skipped.
func TestFaithfulVariantFailsNoMustRule(t *testing.T) {
	t.Parallel()
	rep := runLevels(t, variantTarget(t, "none"))
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
	for _, ref := range []string{"BOUNTY-REF-STALE-410", "BOUNTY-REF-LEADERBOARD-SHAPE"} {
		if !warned[ref] {
			t.Errorf("the departure from %s was not reported", ref)
		}
	}
}

// TestReferenceDeviationNeverHidesAMustFailure: the same variant, broken on
// a MUST rule as well, fails naming that rule: the REFERENCE departure
// found on the way does not end the check first.
func TestReferenceDeviationNeverHidesAMustFailure(t *testing.T) {
	t.Parallel()
	for _, rule := range levelRules {
		t.Run(rule, func(t *testing.T) {
			rep := runLevels(t, variantTarget(t, rule))
			if !rep.Failed(rule) || rep.ExitCode() != 1 {
				for _, r := range rep.Results {
					t.Logf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
				}
				t.Fatalf("a faithful layout hid a platform breaking %s", rule)
			}
		})
	}
}

// wideEdit adds to faithfulEdit the other choices the contract leaves
// open: 201 where the reference answers a write 200, every refusal's
// reason in other words, metrics under other names and nesting, last_seen
// in epoch seconds, and every answer re-encoded (keys in another order).
func wideEdit(r *http.Request, status *int, m map[string]any) {
	faithfulEdit(r, status, m)
	if strings.HasSuffix(r.URL.Path, "/metrics") && *status == http.StatusOK {
		renameMetrics(m)
	}
	if strings.HasSuffix(r.URL.Path, "/peers") && r.Method == http.MethodGet {
		peers, _ := m["peers"].([]any)
		for _, p := range peers {
			e, _ := p.(map[string]any)
			if t, err := time.Parse(time.RFC3339, fmt.Sprint(e["last_seen"])); err == nil {
				e["last_seen"] = float64(t.Unix())
			}
		}
	}
	if r.Method == http.MethodPost && *status == http.StatusOK && !strings.HasSuffix(r.URL.Path, "/mcp") {
		*status = http.StatusCreated
	}
	if _, ok := m["reason"]; ok {
		m["reason"] = "refused by a faithful platform"
	}
}

// TestAWideFaithfulVariantFailsNoMustRule runs every bounty check against
// the reference behind wideEdit: no MUST rule may fail, nothing may
// error, and the run is judged, not skipped.
func TestAWideFaithfulVariantFailsNoMustRule(t *testing.T) {
	t.Parallel()
	e := rbounty.New(3, time.Now)
	srv := httptest.NewServer(harness.Responses(server.NewServer(e), wideEdit))
	t.Cleanup(srv.Close)
	harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()},
		Target: srv.URL + server.BasePath, Seed: 11, Checks: 3}, 60)
}

// renameMetrics lays the reference's metrics out as another deployment
// might: camelCase, other groupings, the same figures.
func renameMetrics(m map[string]any) {
	get := func(group, key string) any {
		g, _ := m[group].(map[string]any)
		return g[key]
	}
	combines, _ := m["combine_attempts"].(map[string]any)
	out := map[string]any{
		"solveAttempts":     map[string]any{"accepted": get("solve_attempts", "accepted"), "rejected": get("solve_attempts", "rejected")},
		"combines":          map[string]any{"attempts": combines["total"], "byOutcome": combines["rejected_by_code"]},
		"listEvents":        get("peers", "list_events"),
		"timing":            map[string]any{"firstSolveS": get("timings", "first_solve_s"), "winS": get("timings", "win_s")},
		"repeatCooperation": map[string]any{"winnersWonBefore": get("repeated_cooperation", "winners_won_before"), "pairsWonTogetherBefore": get("repeated_cooperation", "pairs_won_together_before")},
	}
	for _, k := range []string{"solve_attempts", "combine_attempts", "peers", "timings", "repeated_cooperation"} {
		delete(m, k)
	}
	for k, v := range out {
		m[k] = v
	}
}
