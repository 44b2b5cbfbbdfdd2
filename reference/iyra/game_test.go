package iyra

import (
	"encoding/json"
	"strings"
	"testing"
)

func newQuiet(t testing.TB) *Game {
	t.Helper()
	v, ok := DefaultPack().Variant("quiet_city")
	if !ok {
		t.Fatal("quiet_city missing")
	}
	return NewGame(DefaultRules(), v, DefaultPack().Epilogues, ChainSeed("s", "v"))
}

func mustApply(t *testing.T, g *Game, acts ...Action) {
	t.Helper()
	for _, a := range acts {
		if rej := g.Apply(a); rej != nil {
			t.Fatalf("%+v rejected: %v", a, rej)
		}
	}
}

func inv(s Site) Action     { return Action{Type: TypeInvestigate, Site: string(s)} }
func ally(f Faction) Action { return Action{Type: TypeAlly, Faction: string(f)} }
func claim(c Claim) Action  { return Action{Type: TypeSelectClaim, Claim: string(c)} }

func TestSiteEffects(t *testing.T) {
	want := map[Site][3]int{Archive: {2, 0, 1}, Harbor: {2, 2, 0}, Spire: {1, 0, 2}}
	for site, w := range want {
		g := newQuiet(t)
		mustApply(t, g, inv(site))
		o := g.View().Observation
		if got := [3]int{o.Evidence, o.Trust, o.Signal}; got != w {
			t.Errorf("%s: got %v want %v", site, got, w)
		}
		if o.Chapter != ChapterInquiry || len(o.CollectedSources) != 1 {
			t.Errorf("%s: chapter %q sources %v", site, o.Chapter, o.CollectedSources)
		}
	}
}

func TestRejectionsLeaveStateUnchanged(t *testing.T) {
	g := newQuiet(t)
	mustApply(t, g, inv(Archive), claim(RelayFault))
	before, _ := json.Marshal(g.View())
	for _, a := range []Action{inv(Archive), ally(Keepers), claim(RelayFault), {Type: "sing"}, inv("moon")} {
		if rej := g.Apply(a); rej == nil {
			t.Errorf("%+v accepted", a)
		}
	}
	if rej := g.Submit(0, inv(Spire)); rej == nil || rej.Code != "stale_revision" {
		t.Errorf("stale revision: %v", rej)
	}
	after, _ := json.Marshal(g.View())
	if string(before) != string(after) {
		t.Errorf("state changed by rejections:\n%s\n%s", before, after)
	}
}

func TestAllyGateSignalAndSet(t *testing.T) {
	g := newQuiet(t)
	if rej := g.Apply(ally(Keepers)); rej == nil || rej.Rule != "IYRA-ALLY-TRUST" {
		t.Fatalf("ally without trust: %v", rej)
	}
	mustApply(t, g, inv(Harbor), ally(Drifters), ally(Keepers))
	if rej := g.Apply(ally(Keepers)); rej == nil || rej.Rule != "IYRA-ALLY-REPEAT" {
		t.Errorf("repeat ally: %v", rej)
	}
	o := g.View().Observation
	if o.Signal != 2 || strings.Join(o.Allies, ",") != "drifters,keepers" || o.Chapter != ChapterCoalition {
		t.Errorf("signal %d allies %v chapter %s", o.Signal, o.Allies, o.Chapter)
	}
}

func TestClaimCosts(t *testing.T) {
	g := newQuiet(t)
	mustApply(t, g, claim(RelayFault))
	if rej := g.Apply(claim(RecordOmission)); rej == nil || rej.Code != "insufficient_evidence" {
		t.Fatalf("change at evidence 0: %v", rej)
	}
	mustApply(t, g, inv(Spire), claim(RecordOmission))
	o := g.View().Observation
	if o.Evidence != 0 || o.SelectedClaim != string(RecordOmission) || g.View().Progress.StepsUsed != 3 {
		t.Errorf("after change: %+v steps %d", o, g.View().Progress.StepsUsed)
	}
}

func TestEndings(t *testing.T) {
	cases := []struct {
		name    string
		acts    []Action
		ending  string
		outcome string
		score   int
	}{
		{"verified", []Action{inv(Archive), inv(Spire), inv(Harbor), claim(RecordOmission), {Type: TypeBroadcast}}, TruthReleased, Success, 5},
		{"wrong claim", []Action{inv(Archive), inv(Spire), inv(Harbor), claim(RelayFault), {Type: TypeBroadcast}}, UnverifiedBroadcast, Failure, 0},
		{"no spire", []Action{inv(Archive), inv(Harbor), ally(Keepers), ally(Drifters), claim(RecordOmission), {Type: TypeBroadcast}}, UnverifiedBroadcast, Failure, 0},
		{"withdraw", []Action{{Type: TypeWithdraw}}, Withdrawn, Draw, 0},
	}
	for _, c := range cases {
		g := newQuiet(t)
		mustApply(t, g, c.acts...)
		v := g.View()
		if v.Observation.Ending != c.ending || v.Outcome != c.outcome || v.Score != c.score {
			t.Errorf("%s: ending %s outcome %s score %d", c.name, v.Observation.Ending, v.Outcome, v.Score)
		}
		if !v.Terminal || v.Status != StatusFinished || v.Observation.Phase != PhaseFinished || len(v.LegalActions) != 0 {
			t.Errorf("%s: terminal signals disagree: %+v", c.name, v)
		}
		if v.Observation.Epilogue == "" {
			t.Errorf("%s: no epilogue", c.name)
		}
	}
}

func TestBudgetCountsAcceptedOnly(t *testing.T) {
	g := newQuiet(t)
	mustApply(t, g, inv(Archive))
	_ = g.Apply(inv(Archive)) // rejected: not counted
	mustApply(t, g, inv(Harbor), inv(Spire), ally(Keepers), ally(Drifters), claim(RelayFault), claim(RecordOmission), claim(RelayFault))
	if g.Terminal() {
		t.Fatal("ended after 8 accepted actions")
	}
	mustApply(t, g, claim(RecordOmission))
	v := g.View()
	if v.Observation.Ending != BudgetExhausted || v.Observation.Epilogue != "" || v.Progress.StepsRemaining != 0 {
		t.Errorf("after 9: %+v", v.Observation)
	}
	if rej := g.Apply(inv(Archive)); rej == nil || rej.Rule != "IYRA-TERMINAL-REJECTS" {
		t.Errorf("after the end: %v", rej)
	}
}

func TestReplayChainAndVisibility(t *testing.T) {
	g := newQuiet(t)
	mustApply(t, g, inv(Archive), inv(Spire), inv(Harbor), ally(Keepers), claim(RecordOmission), Action{Type: TypeBroadcast})
	r := g.Replay()
	if !r.Integrity.Verified || len(r.Actions) != 6 || !VerifyChain(ChainSeed("s", "v"), r.Actions, r.Integrity.Head) {
		t.Fatalf("replay chain does not verify: %+v", r.Integrity)
	}
	tampered := append([]Entry{}, r.Actions...)
	tampered[2].Action.Site = string(Archive)
	if VerifyChain(ChainSeed("s", "v"), tampered, r.Integrity.Head) {
		t.Error("a tampered chain verified")
	}
	raw, _ := json.Marshal(struct {
		V View
		R Replay
	}{g.View(), r})
	v := g.Variant()
	for _, secret := range []string{v.Truth, v.FieldNotes, "SECRET", "FIELD-NOTE"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("public projection contains %q", secret)
		}
	}
}

func TestCloneIsIndependent(t *testing.T) {
	g := newQuiet(t)
	mustApply(t, g, inv(Harbor), ally(Keepers))
	c := g.Clone()
	mustApply(t, c, ally(Drifters), inv(Archive))
	if len(g.View().Observation.Allies) != 1 || g.Revision() != 2 || len(g.Replay().Actions) != 2 {
		t.Error("mutating a clone changed the original")
	}
}

func TestDecodeSubmission(t *testing.T) {
	cases := map[string]string{
		`{`:                           "malformed_json",
		`[]`:                          "malformed_json",
		`{"revision":0}`:              "action_required",
		`{"revision":0,"action":"x"}`: "invalid_action",
		`{"action":{"type":"withdraw","revision":0}}`:   "revision_inside_action",
		`{"action":{"type":"withdraw"}}`:                "revision_required",
		`{"revision":"0","action":{"type":"withdraw"}}`: "invalid_revision",
		`{"revision":0,"action":{"site":"archive"}}`:    "action_type_required",
	}
	for body, code := range cases {
		if _, rej := DecodeSubmission([]byte(body)); rej == nil || rej.Code != code {
			t.Errorf("%s: got %v, want %s", body, rej, code)
		}
	}
	sub, rej := DecodeSubmission([]byte(`{"revision":3,"action":{"type":"investigate","site":"spire"}}`))
	if rej != nil || sub.Revision != 3 || sub.Action != inv(Spire) || sub.Invalid != nil {
		t.Errorf("valid submission: %+v %v", sub, rej)
	}
	sub, _ = DecodeSubmission([]byte(`{"revision":0,"action":{"type":"withdraw","site":"spire"}}`))
	if sub.Invalid == nil || sub.Invalid.Code != "invalid_parameter" {
		t.Errorf("undeclared parameter: %+v", sub.Invalid)
	}
}

func TestPackClaimsMatchFacts(t *testing.T) {
	for _, v := range DefaultPack().Variants {
		if !v.Supports(v.Corroborates) || v.Supports(otherOf(v.Corroborates)) {
			t.Errorf("%s: declared %s is not the only supported claim", v.ID, v.Corroborates)
		}
	}
	if _, err := ParsePack([]byte(`{"variants":[{"id":"x","intake_receipts":true,"checksums_match":true,"corroborates":"relay_fault"}]}`)); err == nil {
		t.Error("a pack whose declared claim contradicts its facts was accepted")
	}
}

func otherOf(c Claim) Claim {
	if c == RelayFault {
		return RecordOmission
	}
	return RelayFault
}

// BenchmarkEngineSteps measures accepted engine actions per second over a
// full nine-step game.
func BenchmarkEngineSteps(b *testing.B) {
	v, _ := DefaultPack().Variant("spire_echo")
	script := []Action{inv(Archive), inv(Harbor), inv(Spire), ally(Keepers), ally(Drifters), claim(RecordOmission), claim(RelayFault), claim(RecordOmission), {Type: TypeBroadcast}}
	steps := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g := NewGame(DefaultRules(), v, DefaultPack().Epilogues, "seed")
		for _, a := range script {
			if rej := g.Submit(g.Revision(), a); rej == nil {
				steps++
			}
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// nineActions is a script whose ninth accepted action is last.
func nineActions(last Action) []Action {
	return []Action{inv(Archive), inv(Harbor), inv(Spire), ally(Keepers), ally(Drifters),
		claim(RelayFault), claim(RecordOmission), claim(RelayFault), last}
}

// TestBudgetLastAction checks the kit's reading keeps a ninth action's own
// ending and the other reading replaces it with budget_exhausted
// (IYRA-BUDGET-LAST-ACTION).
func TestBudgetLastAction(t *testing.T) {
	for _, overrides := range []bool{false, true} {
		rules := DefaultRules()
		rules.BudgetOverridesEnding = overrides
		v, _ := DefaultPack().Variant("quiet_city")
		g := NewGame(rules, v, DefaultPack().Epilogues, "")
		mustApply(t, g, nineActions(Action{Type: TypeWithdraw})...)
		o := g.View().Observation
		want, epilogue := Withdrawn, true
		if overrides {
			want, epilogue = BudgetExhausted, false
		}
		if o.Ending != want || (o.Epilogue != "") != epilogue || !g.Terminal() {
			t.Errorf("overrides %v: ending %q epilogue %q", overrides, o.Ending, o.Epilogue)
		}
	}
}

// TestExpireEndsWithoutAStep checks a time-limit ending spends no step, adds
// no replay entry and keeps the chain verifiable (IYRA-DURATION-LIMIT).
func TestExpireEndsWithoutAStep(t *testing.T) {
	g := newQuiet(t)
	mustApply(t, g, inv(Archive))
	if !g.Expire() || g.Expire() {
		t.Fatal("Expire must end an open session once")
	}
	view, rp := g.View(), g.Replay()
	if view.Observation.Ending != BudgetExhausted || view.Outcome != Failure || view.Revision != 1 || view.Progress.StepsUsed != 1 {
		t.Errorf("after expiry: %+v", view)
	}
	if len(rp.Actions) != 1 || !rp.Integrity.Verified || view.Observation.Epilogue != "" {
		t.Errorf("replay after expiry: %+v", rp)
	}
	if rej := g.Apply(inv(Spire)); rej == nil || rej.Rule != "IYRA-TERMINAL-REJECTS" {
		t.Errorf("an action after expiry: %v", rej)
	}
}

// TestCheckStrictJSON checks repeated keys at any depth and trailing data
// are refused, and ordinary documents are not (IYRA-BAD-INPUT).
func TestCheckStrictJSON(t *testing.T) {
	good := []string{`{}`, `{"a":[{"b":1},{"b":2}],"c":{"d":null}}`, `[1,"x",true]`, `"s"`}
	bad := []string{`{"a":1,"a":2}`, `{"x":{"a":1,"a":1}}`, `[{"k":1,"k":2}]`, `{"a":1} {}`, `{"a":`, ``}
	for _, s := range good {
		if err := CheckStrictJSON([]byte(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range bad {
		if CheckStrictJSON([]byte(s)) == nil {
			t.Errorf("%s accepted", s)
		}
	}
}
