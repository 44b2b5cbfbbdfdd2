package iyra_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// shiftRevisions numbers revisions from 1: the target adds one to every
// revision it shows and subtracts it from every revision it receives.
func shiftRevisions() http.Handler {
	return tamper{h: ref(),
		req: func(r *http.Request, body []byte) []byte {
			var env map[string]any
			if isActions(r) && json.Unmarshal(body, &env) == nil && env != nil {
				if f, ok := env["revision"].(float64); ok {
					env["revision"] = f - 1
					body, _ = json.Marshal(env)
				}
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			if f, ok := m["revision"].(float64); ok {
				m["revision"] = f + 1
			}
		}}
}

// observationEdit applies edit to the observation of every session answer.
func observationEdit(edit func(o map[string]any)) http.Handler {
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if o, ok := m["observation"].(map[string]any); ok {
			edit(o)
		}
	}}
}

// strictCreation refuses the kit's variant field at session creation.
func strictCreation() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		var body map[string]any
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") &&
			json.Unmarshal(raw, &body) == nil && body["variant"] != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"code":"unknown_field","message":"unknown field variant"}`))
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// ownContent replaces every kit text with the target's own words and names
// no variant, as a deployment with its own content would: the runner must
// learn which claim its records corroborate from the target itself.
func ownContent(edit func(r *http.Request, st *int, m map[string]any)) http.Handler {
	words := strings.NewReplacer(ownWords()...)
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		delete(m, "variant")
		if edit != nil {
			edit(r, st, m)
		}
		raw, _ := json.Marshal(m)
		var out map[string]any
		_ = json.Unmarshal([]byte(words.Replace(string(raw))), &out)
		clear(m)
		for k, v := range out {
			m[k] = v
		}
	}}
}

// ownWords pairs each kit site text with a deployment's own text.
func ownWords() []string {
	var pairs []string
	for i, v := range riyra.DefaultPack().Variants {
		for j, text := range []string{v.ArchiveTestimony, v.HarborTestimony, v.SpireFact} {
			b, _ := json.Marshal(text)
			pairs = append(pairs, string(b[1:len(b)-1]), "Own record "+string(rune('A'+i))+string(rune('1'+j))+" of this deployment.")
		}
	}
	return pairs
}

// otherVersion is a version a deployment may assign during a rollout.
const otherVersion = "xgv_000000000000000000rollout"

// anotherVersion assigns otherVersion: it answers every version_id with it
// and maps it back before the reference sees a request.
func anotherVersion() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		raw = bytes.ReplaceAll(raw, []byte(otherVersion), []byte(server.VersionID))
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.ContentLength = int64(len(raw))
		r.URL.Path = strings.ReplaceAll(r.URL.Path, otherVersion, server.VersionID)
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(bytes.ReplaceAll(rec.Body.Bytes(), []byte(server.VersionID), []byte(otherVersion)))
	})
}

// TestAnotherAssignedVersionSkipsGameRules checks the game rules are not
// applied to a version the contract does not describe: they skip, and the
// execution contract is still checked.
func TestAnotherAssignedVersionSkipsGameRules(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(anotherVersion())
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
		Target: srv.URL, Seed: 11, Checks: 3})
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]verdict.Status{}
	passed := map[string]bool{}
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		}
		for _, id := range r.Rules {
			passed[id] = passed[id] || r.Status == verdict.Pass
			if was, seen := statuses[id]; seen {
				statuses[id] = verdict.Worse(was, r.Status)
			} else {
				statuses[id] = r.Status
			}
		}
	}
	for _, id := range []string{"IYRA-LIMITS", "IYRA-SITE-EFFECTS", "IYRA-ENDING-SUCCESS"} {
		if statuses[id] != verdict.Skip {
			t.Errorf("%s: %s, want skip", id, statuses[id])
		}
	}
	for _, id := range []string{"IYRA-IDEMPOTENCY-STATUS", "IYRA-AUTH-BEARER"} {
		if statuses[id] != verdict.Pass {
			t.Errorf("%s: %s, want pass", id, statuses[id])
		}
	}
	// Every example of IYRA-SESSION-KEY-REUSE runs: the another-version one
	// on the reference's rollout version (IYRA-REF-ROLLOUT).
	if !passed["IYRA-SESSION-KEY-REUSE"] || statuses["IYRA-SESSION-KEY-REUSE"] != verdict.Pass {
		t.Errorf("IYRA-SESSION-KEY-REUSE: %s, want every example to pass", statuses["IYRA-SESSION-KEY-REUSE"])
	}
}

// releasesAnyClaim turns every otherwise complete unverified broadcast into
// a verified one: corroboration is never checked.
func releasesAnyClaim(r *http.Request, st *int, m map[string]any) {
	o, ok := m["observation"].(map[string]any)
	if !ok || o["ending"] != riyra.UnverifiedBroadcast || o["selected_claim"] == "" ||
		o["archive_checked"] != true || o["spire_checked"] != true {
		return
	}
	if o["evidence"].(float64) >= 4 && o["signal"].(float64) >= 3 {
		o["ending"], m["outcome"], m["score"] = riyra.TruthReleased, riyra.Success, o["evidence"]
	}
}

// TestLegalVariantsPass runs the features and the property against targets
// that follow the contract but not the kit's choices: none may fail, the
// departures only warn.
func TestLegalVariantsPass(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		handler http.Handler
	}{
		{"revisions from 1 (F1)", shiftRevisions()},
		{"first chapter prologue, phase active (F2, F3)", observationEdit(func(o map[string]any) {
			if o["chapter"] == riyra.ChapterArrival {
				o["chapter"] = "prologue"
			}
			if o["phase"] == riyra.PhaseInvestigating {
				o["phase"] = "active"
			}
		})},
		{"creation refuses the variant field (F4)", strictCreation()},
		{"stale revision 422, bad credential 403 (F17, F19)", tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
			switch {
			case m["code"] == "stale_revision":
				*st = http.StatusUnprocessableEntity
			case *st == http.StatusUnauthorized:
				*st = http.StatusForbidden
			}
		}}},
		{"participant-only notes in the own state (F12)", tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
			if _, ok := m["observation"]; ok {
				m["participant"] = map[string]any{"field_notes": []any{}}
			}
		}}},
		{"nested idempotency status (F13)", tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
			if strings.HasSuffix(r.URL.Path, "/idempotency/status") && *st == http.StatusOK {
				m["session"] = map[string]any{"id": m["session_id"]}
				delete(m, "session_id")
			}
		}}},
		{"own content, no variant named", ownContent(nil)},
		{"the budget's ending wins a ninth broadcast or withdrawal", withRules(func(r *riyra.Rules) { r.BudgetOverridesEnding = true })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each variant has its own server
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
				Target: srv.URL, Seed: 11, Checks: 8, CaseDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				if r.Status == verdict.Fail || r.Status == verdict.Error {
					t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
				}
			}
			if rep.ExitCode() != 0 {
				t.Errorf("exit code %d, want 0", rep.ExitCode())
			}
		})
	}
}

// TestOwnContentCorroborationIsChecked proves learning the corroborated
// claim from the target does not excuse a target releasing the truth for
// either claim on the same records.
func TestOwnContentCorroborationIsChecked(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(ownContent(releasesAnyClaim))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
		Target: srv.URL, Seed: 11, NoProperties: true, Rules: []string{"IYRA-ENDING-UNVERIFIED"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 1 || !rep.Failed("IYRA-ENDING-UNVERIFIED") {
		t.Errorf("exit %d; want IYRA-ENDING-UNVERIFIED failed", rep.ExitCode())
		for _, r := range rep.Results {
			t.Logf("%s: %s %s", r.Name, r.Status, r.Message)
		}
	}
}

// steps encodes a property sequence: the start variant, then actions.
func steps(variant string, script ...riyra.Action) []suite.Action {
	start, _ := json.Marshal(map[string]any{"start": variant})
	out := []suite.Action{start}
	for _, a := range script {
		raw, _ := json.Marshal(map[string]any{"action": a})
		out = append(out, raw)
	}
	return out
}

// TestLockstepFollowsLegalReadings replays fixed sequences through the
// property: a target taking the other reading of a REFERENCE choice, or
// corroborating a claim of its own records, passes; a target breaking the
// contract fails the right rule.
func TestLockstepFollowsLegalReadings(t *testing.T) {
	t.Parallel()
	inv := func(s string) riyra.Action { return riyra.Action{Type: riyra.TypeInvestigate, Site: s} }
	ally := func(f string) riyra.Action { return riyra.Action{Type: riyra.TypeAlly, Faction: f} }
	claim := func(c string) riyra.Action { return riyra.Action{Type: riyra.TypeSelectClaim, Claim: c} }
	ninth := steps("quiet_city", inv("archive"), inv("harbor"), inv("spire"), ally("keepers"), ally("drifters"),
		claim("relay_fault"), claim("record_omission"), claim("relay_fault"), riyra.Action{Type: riyra.TypeWithdraw})
	release := func(c string) []suite.Action {
		return steps("spire_echo", inv("archive"), inv("spire"), inv("harbor"), ally("keepers"), claim(c), riyra.Action{Type: riyra.TypeBroadcast})
	}
	cases := []struct {
		name    string
		handler http.Handler
		seq     []suite.Action
		rule    string
	}{
		{"the kit's reading of a ninth withdrawal", ref(), ninth, ""},
		{"the budget's reading of a ninth withdrawal", withRules(func(r *riyra.Rules) { r.BudgetOverridesEnding = true }), ninth, ""},
		{"own records corroborating relay_fault", ownContent(nil), release("relay_fault"), ""},
		{"own records, the other claim", ownContent(nil), release("record_omission"), ""},
		{"a withdrawal ending unverified", tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
			if o, ok := m["observation"].(map[string]any); ok && o["ending"] == riyra.Withdrawn {
				o["ending"] = riyra.UnverifiedBroadcast
			}
		}}, ninth, "IYRA-WITHDRAW"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			rep, err := suite.Replay(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()}, Target: srv.URL, Seed: 3},
				&suite.Case{Version: 1, Protocol: "iyra", Kind: "property", Property: iyra.Protocol().Properties[0].Name, Sequence: c.seq})
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Results[0]
			want := verdict.Pass
			if c.rule != "" {
				want = verdict.Fail
			}
			if res.Status != want || res.FailedRule != c.rule {
				t.Errorf("%s on %q (%s); want %s %s", res.Status, res.FailedRule, res.Message, want, c.rule)
			}
		})
	}
}
