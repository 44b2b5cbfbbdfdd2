package iyra_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
)

// The tests of this file check what a check judges: a target taking a
// reading the contract leaves open passes, one breaking the rule fails under
// it, and the failure says where the runner looked.

// runRules runs the scenarios of rules against handler over HTTP.
func runRules(t *testing.T, handler http.Handler, rules ...string) *verdict.Report {
	t.Helper()
	out, err := harness.Run(iyra.Protocol(), harness.Case{Name: strings.Join(rules, ","), Rule: rules[0], Rules: rules, Target: handler})
	if err != nil {
		t.Fatal(err)
	}
	rep := out.Report
	if len(rep.Results) == 0 {
		t.Fatalf("no scenario of %v ran", rules)
	}
	return rep
}

// resultsNamed returns the results whose scenario name contains part.
func resultsNamed(t *testing.T, rep *verdict.Report, part string) []verdict.Result {
	t.Helper()
	var out []verdict.Result
	for _, r := range rep.Results {
		if strings.Contains(r.Name, part) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no scenario named like %q", part)
	}
	return out
}

// eachObject applies edit to the answer and to its observation.
func eachObject(m map[string]any, edit func(map[string]any)) {
	edit(m)
	if obs, ok := m["observation"].(map[string]any); ok {
		edit(obs)
	}
}

// nullWhenEmpty writes empty claim, epilogue, sources and allies as JSON
// null: the contract never says how an empty value is written.
func nullWhenEmpty(m map[string]any) {
	eachObject(m, func(o map[string]any) {
		for k, v := range o {
			switch v := v.(type) {
			case string:
				if v == "" && (k == "selected_claim" || k == "epilogue") {
					o[k] = nil
				}
			case []any:
				if len(v) == 0 && (k == "collected_sources" || k == "allies") {
					o[k] = nil
				}
			}
		}
	})
}

// dropWhenFinished removes key from every finished session's answer.
func dropWhenFinished(key string) func(map[string]any) {
	return func(m map[string]any) {
		if m["status"] == "finished" {
			eachObject(m, func(o map[string]any) { delete(o, key) })
		}
	}
}

// TestTerminalSummaryJudgesKeyPresence: a target writing empty summary
// fields as null keeps them (round 2, item 1), one leaving a field out
// fails, and the failure names where the runner looked.
func TestTerminalSummaryJudgesKeyPresence(t *testing.T) {
	t.Parallel()
	const rule = "IYRA-TERMINAL-SUMMARY"
	rep := runRules(t, rewrites{ref(), nullWhenEmpty}, rule)
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			t.Errorf("null for empty values: %s %s on %s: %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
	}
	if rep.Failed(rule) {
		t.Errorf("%s failed a target sending null for empty values", rule)
	}

	rep = runRules(t, rewrites{ref(), dropWhenFinished("epilogue")}, rule)
	if !rep.Failed(rule) || rep.ExitCode() != 1 {
		t.Fatalf("a finished session without epilogue: exit %d, %s failed %v", rep.ExitCode(), rule, rep.Failed(rule))
	}
	for _, r := range rep.Results {
		if r.FailedRule == rule && !(strings.Contains(r.Observed, "observation: [") && strings.Contains(r.Message, "epilogue")) {
			t.Errorf("the failure should name the missing field and the observation's keys: %s / %s", r.Message, r.Observed)
		}
	}
}

// lenientCreation accepts any version for any of the contract's games,
// serving helios-relay as Iyra, and ignores the variant field: every
// reused-key body then passes its control.
func lenientCreation(r *http.Request, body []byte) []byte {
	r.URL.Path = strings.Replace(r.URL.Path, "/store/"+iyra.OtherGame+"/", "/store/"+iyra.Slug+"/", 1)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") {
		return body
	}
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m == nil {
		return body
	}
	m["accepted_version_id"] = iyra.ContractVersion
	delete(m, "variant")
	out, _ := json.Marshal(m)
	return out
}

// TestKeyReuseNeedsAControl: against the reference every example of the
// rule runs and passes: another version on the rollout track's second
// version (IYRA-REF-ROLLOUT), another game on the second game
// (IYRA-REF-SECOND-GAME). A target without the rollout track refuses a
// second version of the same game whatever the key, so that example skips
// instead of passing (round 2, item 2); a target accepting those bodies
// and binding the key to nothing fails each of them, although it ignores
// the variant field the intended-session example needs.
func TestKeyReuseNeedsAControl(t *testing.T) {
	t.Parallel()
	const rule = "IYRA-SESSION-KEY-REUSE"
	rep := runRules(t, ref(), rule)
	for _, part := range []string{"another version", "another game", "another intended session"} {
		for _, r := range resultsNamed(t, rep, part) {
			if r.Status != verdict.Pass {
				t.Errorf("reference, %s: %s %s", r.Name, r.Status, r.Message)
			}
		}
	}
	noTrack := tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		r.URL.RawQuery = ""
		return body
	}}
	for _, r := range resultsNamed(t, runRules(t, noTrack, rule), "another version") {
		if r.Status != verdict.Skip {
			t.Errorf("no rollout track, %s: %s (%s), want a skip: the control is refused", r.Name, r.Status, r.Message)
		}
	}

	rep = runRules(t, keyIgnoresRequestOn(tamper{h: ref(), req: lenientCreation}), rule)
	if rep.ExitCode() != 1 {
		t.Errorf("exit code %d, want 1", rep.ExitCode())
	}
	for _, part := range []string{"another version", "another game"} {
		for _, r := range resultsNamed(t, rep, part) {
			if r.Status != verdict.Fail || r.FailedRule != rule {
				t.Errorf("key bound to nothing, %s: %s on %q (%s), want a fail of %s", r.Name, r.Status, r.FailedRule, r.Message, rule)
			}
		}
	}
	for _, r := range resultsNamed(t, rep, "another intended session") {
		if r.Status != verdict.Skip {
			t.Errorf("variant ignored, %s: %s (%s), want a skip", r.Name, r.Status, r.Message)
		}
	}
}

// sessionNonceEpilogue gives every epilogue the keepers' text whatever the
// ally, made unique by the session id: two factions' epilogues differ, but
// not because of the ally.
func sessionNonceEpilogue(m map[string]any) {
	obs, ok := m["observation"].(map[string]any)
	if !ok || str(obs["epilogue"]) == "" {
		return
	}
	obs["epilogue"] = "The keepers preserve the evidence with an auditable correction. (session " + str(m["session_id"]) + ")"
}

// TestFactionConsequenceIsTheAllys: an epilogue that differs per session
// but not per ally fails IYRA-FACTION-CONSEQUENCE (round 2, item 3), in the
// same-ally scenario, while the reference passes it.
func TestFactionConsequenceIsTheAllys(t *testing.T) {
	t.Parallel()
	const rule = "IYRA-FACTION-CONSEQUENCE"
	rep := runRules(t, ref(), rule)
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			t.Errorf("reference, %s: %s %s", r.Name, r.Status, r.Message)
		}
	}

	rep = runRules(t, rewrites{ref(), sessionNonceEpilogue}, rule)
	if rep.ExitCode() != 1 || !rep.Failed(rule) {
		t.Fatalf("exit %d, %s failed %v; want 1 and a fail", rep.ExitCode(), rule, rep.Failed(rule))
	}
	for _, r := range resultsNamed(t, rep, "same ally") {
		if r.Status != verdict.Fail || r.FailedRule != rule {
			t.Errorf("%s: %s on %q (%s), want a fail of %s", r.Name, r.Status, r.FailedRule, r.Message, rule)
		}
	}
}
