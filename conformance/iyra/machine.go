package iyra

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// lockstepRules are the rules the lockstep property can break.
var lockstepRules = []string{
	"IYRA-SITE-EFFECTS", "IYRA-SITE-ONCE", "IYRA-SITE-REVEAL", "IYRA-ALLY-TRUST", "IYRA-ALLY-SIGNAL",
	"IYRA-ALLY-REPEAT", "IYRA-ALLY-SET", "IYRA-CLAIM-FIRST", "IYRA-CLAIM-CHANGE", "IYRA-CLAIM-SAME",
	"IYRA-BROADCAST-ACCEPTED", "IYRA-ENDING-SUCCESS", "IYRA-ENDING-UNVERIFIED", "IYRA-WITHDRAW", "IYRA-BUDGET",
	"IYRA-REVISION-STALE", "IYRA-TERMINAL-REJECTS", "IYRA-TERMINAL-SIGNALS", "IYRA-EPILOGUE", "IYRA-VISIBILITY",
	"IYRA-CHAPTER-INQUIRY", "IYRA-LEGAL-CATALOGUE",
}

// step is one drawn action: the action and whether to send a stale
// revision, or, as the first step, the variant to start. It is JSON so
// rapid's shrunk sequences replay anywhere.
type step struct {
	Start  string      `json:"start,omitempty"`
	Action iyra.Action `json:"action,omitzero"`
	Stale  bool        `json:"stale,omitempty"`
}

// machine drives one target session and the reference engine in lockstep.
type machine struct {
	c       *client
	drawn   bool // the start step has been drawn
	sess    *sessionDoc
	model   *iyra.Game
	version string
}

// newMachine adopts the run's identity; the session starts with the first
// step, so the variant is part of the replayable sequence.
func newMachine(ctx context.Context, env *suite.Env) (suite.Machine, error) {
	c := &client{env: env}
	id, err := c.sharedIdentity(ctx)
	if err != nil {
		return nil, err
	}
	c.id = id
	return &machine{c: c, version: id.Version}, nil
}

// start creates the target session of variant and the matching engine
// game; a target that plays another variant is followed if the kit knows it.
func (m *machine) start(ctx context.Context, variant string) error {
	s, _, err := m.c.newSession(ctx, variant)
	if err != nil {
		return err
	}
	pack := iyra.DefaultPack()
	v, ok := pack.Variant(s.Variant)
	if !ok {
		return verdict.Skipf("the target plays variant %q, unknown to the kit's model", s.Variant)
	}
	m.sess = s
	m.model = iyra.NewGame(iyra.DefaultRules(), v, pack.Epilogues, iyra.ChainSeed(s.SessionID, m.version))
	return nil
}

// Draw picks the variant first, then a legal or illegal action, sometimes
// with a stale revision.
func (m *machine) Draw(t *rapid.T) suite.Action {
	if !m.drawn {
		m.drawn = true
		ids := []string{}
		for _, v := range iyra.DefaultPack().Variants {
			ids = append(ids, v.ID)
		}
		raw, _ := json.Marshal(step{Start: rapid.SampledFrom(ids).Draw(t, "variant")})
		return raw
	}
	st := step{Stale: rapid.IntRange(0, 99).Draw(t, "stale") < 12}
	roll := rapid.IntRange(0, 99).Draw(t, "type")
	switch {
	case roll < 32:
		st.Action = iyra.Action{Type: iyra.TypeInvestigate, Site: rapid.SampledFrom([]string{"archive", "harbor", "spire", "archive", "harbor", "spire", "moon"}).Draw(t, "site")}
	case roll < 58:
		st.Action = iyra.Action{Type: iyra.TypeAlly, Faction: rapid.SampledFrom([]string{"keepers", "drifters", "keepers", "drifters", "pirates"}).Draw(t, "faction")}
	case roll < 84:
		st.Action = iyra.Action{Type: iyra.TypeSelectClaim, Claim: rapid.SampledFrom([]string{"relay_fault", "record_omission"}).Draw(t, "claim")}
	case roll < 92:
		st.Action = iyra.Action{Type: iyra.TypeBroadcast}
	case roll < 97:
		st.Action = iyra.Action{Type: iyra.TypeWithdraw}
	default:
		st.Action = iyra.Action{Type: "sing"}
	}
	raw, _ := json.Marshal(st)
	return raw
}

// Apply submits the step to the target and the model and compares them.
func (m *machine) Apply(ctx context.Context, raw suite.Action) error {
	var st step
	if err := json.Unmarshal(raw, &st); err != nil {
		return verdict.Errorf("undecodable property step %s: %v", raw, err)
	}
	if st.Start != "" || m.sess == nil {
		if err := m.start(ctx, st.Start); err != nil || st.Start != "" {
			return err
		}
	}
	prev := m.model.Clone()
	rev := m.model.Revision()
	if st.Stale {
		if rev--; rev < 0 {
			rev = 1
		}
	}
	rej := m.model.Submit(rev, st.Action)
	resp, err := m.c.submit(ctx, m.sess, envelope(rev, st.Action), nil)
	if err != nil {
		return err
	}
	if err := checkPrivate(resp.Body); err != nil {
		return err
	}
	if err := agreeOnVerdict(st.Action, rej, resp.Status, resp.Body); err != nil {
		return err
	}
	got, err := m.authoritative(ctx, resp)
	if err != nil {
		return err
	}
	if err := m.compare(prev, st.Action, rej, got); err != nil {
		return err
	}
	m.sess = got
	return nil
}

// agreeOnVerdict checks the target accepted exactly what the model did.
func agreeOnVerdict(a iyra.Action, rej *iyra.Rejection, status int, body []byte) error {
	switch {
	case rej == nil && status/100 != 2:
		return verdict.Failf(setupRule(a), "accepted", status, "%s: %s", a.Canonical(), clip(body))
	case rej != nil && status/100 == 2:
		return verdict.Failf(rej.Rule, "rejected ("+rej.Code+")", status, "%s: %s", a.Canonical(), rej.Message)
	case rej != nil && rej.Code == "stale_revision" && status != 409:
		return verdict.Failf("IYRA-REVISION-STALE", 409, status, "%s with a stale revision", a.Canonical())
	case rej != nil && status/100 != 4:
		return verdict.Failf(rej.Rule, "a 4xx rejection", status, "%s", clip(body))
	}
	return nil
}

// authoritative returns the state after the step: the accepted answer, or
// a fresh read after a rejection (IYRA-RECOVERY-READ).
func (m *machine) authoritative(ctx context.Context, resp *driver.Response) (*sessionDoc, error) {
	if resp.Status/100 == 2 {
		return decodeSession(resp)
	}
	readResp, s, err := m.c.read(ctx, m.sess)
	if err != nil {
		return nil, err
	}
	if err := checkPrivate(readResp.Body); err != nil {
		return nil, err
	}
	return s, nil
}

// field is one public value compared between model and target.
type field struct {
	name      string
	want, got any
}

// compare reports the first public field where target and model differ,
// as a failure of the rule that field belongs to.
func (m *machine) compare(prev *iyra.Game, a iyra.Action, rej *iyra.Rejection, got *sessionDoc) error {
	want := m.model.View()
	for _, f := range m.fields(want, got) {
		if fmt.Sprint(f.want) != fmt.Sprint(f.got) {
			rule := fieldRule(f.name, a, rej, prev, want)
			return verdict.Failf(rule, f.want, f.got, "%s after %s (model revision %d)", f.name, a.Canonical(), want.Revision)
		}
	}
	return nil
}

// fields lists the compared values, MUST-rule fields first.
func (m *machine) fields(want iyra.View, got *sessionDoc) []field {
	w, g := want.Observation, got.Observation
	return []field{
		{"evidence", w.Evidence, g.Evidence}, {"trust", w.Trust, g.Trust}, {"signal", w.Signal, g.Signal},
		{"allies", sorted(w.Allies), sorted(g.Allies)},
		{"archive_checked", w.ArchiveChecked, g.ArchiveChecked}, {"harbor_checked", w.HarborChecked, g.HarborChecked},
		{"spire_checked", w.SpireChecked, g.SpireChecked},
		{"archive_testimony", w.ArchiveTestimony, g.ArchiveTestimony},
		{"harbor_testimony", w.HarborTestimony, g.HarborTestimony},
		{"spire_fact", w.SpireFact, g.SpireFact},
		{"collected_sources", w.CollectedSources, g.CollectedSources},
		{"selected_claim", w.SelectedClaim, g.SelectedClaim},
		{"ending", w.Ending, g.Ending}, {"epilogue set", w.Epilogue != "", g.Epilogue != ""},
		{"terminal", want.Terminal, fmtBool(got.Terminal)}, {"status", want.Status, got.Status}, {"phase", w.Phase, g.Phase},
		{"legal_actions", len(want.LegalActions) > 0, len(got.LegalActions) > 0},
		{"chapter", w.Chapter, g.Chapter},
		{"revision", want.Revision, got.rev()}, {"outcome", want.Outcome, got.Outcome}, {"score", want.Score, fmtPtr(got.Score)},
	}
}

// sorted returns a sorted copy, so set-valued fields compare by content.
func sorted(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	return out
}

// fieldRule maps a diverging field to the rule it belongs to. After a
// rejection every change breaks the rejecting rule, which promises an
// unchanged state.
func fieldRule(name string, a iyra.Action, rej *iyra.Rejection, prev *iyra.Game, want iyra.View) string {
	if rej != nil {
		return rej.Rule
	}
	switch name {
	case "evidence", "trust", "signal":
		return resourceRule(a, prev)
	case "allies":
		return "IYRA-ALLY-SIGNAL"
	case "archive_checked", "harbor_checked", "spire_checked", "archive_testimony", "harbor_testimony", "spire_fact", "collected_sources":
		return "IYRA-SITE-REVEAL"
	case "selected_claim":
		return claimRule(prev)
	case "ending":
		return endingRule(want.Observation.Ending, a)
	case "epilogue set":
		return "IYRA-EPILOGUE"
	case "terminal", "status", "phase":
		return "IYRA-TERMINAL-SIGNALS"
	case "legal_actions":
		return "IYRA-LEGAL-CATALOGUE"
	case "chapter":
		if want.Observation.Chapter == iyra.ChapterInquiry {
			return "IYRA-CHAPTER-INQUIRY"
		}
		return "IYRA-CHAPTER-NAMES"
	case "revision":
		return "IYRA-REVISION-INCREMENT"
	case "outcome":
		return "IYRA-OUTCOME"
	}
	return "IYRA-SCORE"
}

// resourceRule names the rule that sets resource deltas for an action type.
func resourceRule(a iyra.Action, prev *iyra.Game) string {
	switch a.Type {
	case iyra.TypeInvestigate:
		return "IYRA-SITE-EFFECTS"
	case iyra.TypeAlly:
		return "IYRA-ALLY-SIGNAL"
	case iyra.TypeSelectClaim:
		return claimRule(prev)
	}
	return "IYRA-BROADCAST-ACCEPTED"
}

// claimRule tells a first selection (IYRA-CLAIM-FIRST) from a change (IYRA-CLAIM-CHANGE).
func claimRule(prev *iyra.Game) string {
	if prev.View().Observation.SelectedClaim == "" {
		return "IYRA-CLAIM-FIRST"
	}
	return "IYRA-CLAIM-CHANGE"
}

// endingRule names the rule deciding an ending.
func endingRule(ending string, a iyra.Action) string {
	switch ending {
	case iyra.TruthReleased:
		return "IYRA-ENDING-SUCCESS"
	case iyra.UnverifiedBroadcast:
		return "IYRA-ENDING-UNVERIFIED"
	case iyra.Withdrawn:
		return "IYRA-WITHDRAW"
	case iyra.BudgetExhausted:
		return "IYRA-BUDGET"
	}
	if a.Type == iyra.TypeBroadcast {
		return "IYRA-BROADCAST-ACCEPTED"
	}
	return "IYRA-BUDGET"
}
