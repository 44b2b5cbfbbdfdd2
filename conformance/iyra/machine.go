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

// lockstepRules are the MUST rules the lockstep property can break. Where
// the contract is silent (chapter names, revision arithmetic, status
// codes, the outcome and score of an active session) the property only
// records a finding of the REFERENCE rule and goes on.
var lockstepRules = []string{
	"IYRA-SITE-EFFECTS", "IYRA-SITE-ONCE", "IYRA-SITE-REVEAL", "IYRA-ALLY-TRUST", "IYRA-ALLY-SIGNAL",
	"IYRA-ALLY-REPEAT", "IYRA-ALLY-SET", "IYRA-CLAIM-FIRST", "IYRA-CLAIM-CHANGE", "IYRA-CLAIM-SAME", "IYRA-CLAIM-EXPLICIT",
	"IYRA-BROADCAST-ACCEPTED", "IYRA-ENDING-SUCCESS", "IYRA-ENDING-UNVERIFIED", "IYRA-WITHDRAW", "IYRA-BUDGET",
	"IYRA-REVISION-STALE", "IYRA-TERMINAL-REJECTS", "IYRA-TERMINAL-SIGNALS", "IYRA-EPILOGUE", "IYRA-VISIBILITY",
	"IYRA-CHAPTER-INQUIRY", "IYRA-LEGAL-CATALOGUE", "IYRA-OUTCOME", "IYRA-SCORE",
}

// step is one drawn action: the action and whether to send a stale
// revision, or, as the first step, the variant to start. It is JSON so
// rapid's shrunk sequences replay anywhere.
type step struct {
	Start  string      `json:"start,omitempty"`
	Action iyra.Action `json:"action,omitzero"`
	Stale  bool        `json:"stale,omitempty"`
}

// reading is one engine model of the target's session: the kit's reading
// of the contract, or a reading that departs from one of the kit's
// REFERENCE choices where the contract allows both.
type reading struct {
	game    *iyra.Game
	departs string // "" for the kit's reading, else the REFERENCE rule it departs from
}

// machine drives one target session and the engine readings in lockstep.
// Every reading the target still agrees with on the MUST fields survives a
// step; the target fails only when none does. Two kinds of readings exist:
// which claim the session's records corroborate (known for the kit's
// variants, open for a target's own records), and which ending a ninth
// action that broadcasts or withdraws gets (IYRA-BUDGET-LAST-ACTION).
type machine struct {
	c        *client
	drawn    bool // the start step has been drawn
	sess     *sessionDoc
	readings []reading
	kit      *iyra.Variant // the kit variant the target named, nil when unknown
	noted    map[string]bool
}

// newMachine adopts the run's identity; the session starts with the first
// step, so the variant is part of the replayable sequence.
func newMachine(ctx context.Context, env *suite.Env) (suite.Machine, error) {
	c := newClient(env)
	id, err := c.sharedIdentity(ctx)
	if err != nil {
		return nil, err
	}
	if id.Version != ContractVersion {
		return nil, verdict.Skipf("the assigned version %s is not the contract's %s; its game rules may differ", id.Version, ContractVersion)
	}
	c.id = id
	return &machine{c: c, noted: map[string]bool{}}, nil
}

// start creates the target session, of variant when the target accepts the
// kit's variant field, and the readings that may describe it.
func (m *machine) start(ctx context.Context, variant string) error {
	s, _, err := m.c.anySession(ctx, variant)
	if err != nil {
		return err
	}
	m.sess = s
	m.kit = nil
	if v, ok := iyra.DefaultPack().Variant(s.Variant); ok {
		m.kit = &v
	}
	m.readings = readings(m.kit, iyra.ChainSeed(s.SessionID, m.c.id.Version))
	return nil
}

// readings builds the engine models of a new session. With a kit variant
// the kit's claim comes first and the other claim departs from
// IYRA-VARIANT-CLAIM; with a target's own records both claims are equally
// the contract's. Each is played with both budget readings.
func readings(kit *iyra.Variant, chainSeed string) []reading {
	pack := iyra.DefaultPack()
	byClaim := map[iyra.Claim]iyra.Variant{}
	for _, v := range pack.Variants {
		if _, seen := byClaim[v.Corroborates]; !seen {
			byClaim[v.Corroborates] = v
		}
	}
	type claimWorld struct {
		v       iyra.Variant
		departs string
	}
	worlds := []claimWorld{{byClaim[iyra.RecordOmission], ""}, {byClaim[iyra.RelayFault], ""}}
	if kit != nil {
		worlds = []claimWorld{{*kit, ""}, {byClaim[otherClaim(kit.Corroborates)], "IYRA-VARIANT-CLAIM"}}
	}
	var out []reading
	for _, overrides := range []bool{false, true} {
		for _, w := range worlds {
			rules := iyra.DefaultRules()
			rules.BudgetOverridesEnding = overrides
			departs := w.departs
			if overrides && departs == "" {
				departs = "IYRA-BUDGET-LAST-ACTION"
			}
			out = append(out, reading{game: iyra.NewGame(rules, w.v, pack.Epilogues, chainSeed), departs: departs})
		}
	}
	return out
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

// Apply submits the step to the target and every reading and compares them.
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
	firstSelection := m.readings[0].game.View().Observation.SelectedClaim == ""
	var rej *iyra.Rejection
	for i, r := range m.readings {
		rev := r.game.Revision()
		if st.Stale {
			rev++ // any revision but the latest is stale
		}
		if got := r.game.Submit(rev, st.Action); i == 0 {
			rej = got
		}
	}
	prev := m.sess
	resp, err := m.c.submit(ctx, prev, m.c.envelope(prev, staleOf(prev.rev(), st.Stale), st.Action), nil)
	if err != nil {
		return err
	}
	if err := checkPrivateResponse(resp); err != nil {
		return err
	}
	if err := m.agreeOnVerdict(st.Action, rej, resp.Status, resp.Body); err != nil {
		return err
	}
	got, err := m.authoritative(ctx, resp)
	if err != nil {
		return err
	}
	if rej != nil {
		if err := unchangedBy(rej.Rule, prev, got); err != nil {
			return err
		}
	} else if got.rev() != prev.rev()+1 {
		m.note("IYRA-REVISION-INCREMENT", prev.rev()+1, got.rev(), "revision after accepting %s", st.Action.Canonical())
	}
	if err := m.follow(change{a: st.Action, rej: rej, firstSelection: firstSelection, prev: prev}, got); err != nil {
		return err
	}
	m.sess = got
	return nil
}

// staleOf is the revision the runner sends: the target's own latest, or for
// a stale step the one before it (the one after, at revision 0). The
// target's numbering is its own (IYRA-REVISION-INCREMENT).
func staleOf(rev int, stale bool) int {
	switch {
	case !stale:
		return rev
	case rev > 0:
		return rev - 1
	}
	return rev + 1
}

// note records a REFERENCE finding once per rule and check.
func (m *machine) note(rule string, expected, observed any, detail string, args ...any) {
	if m.noted[rule] {
		return
	}
	m.noted[rule] = true
	m.c.note(rule, expected, observed, detail, args...)
}

// kitStatus is the status the kit answers a rejection with (IYRA-STATUS-CODES).
func kitStatus(k iyra.Kind) int {
	switch k {
	case iyra.BadInput:
		return 400
	case iyra.Conflict:
		return 409
	}
	return 422
}

// agreeOnVerdict checks the target accepted exactly what the readings did;
// any 4xx is a rejection, the exact status only the kit's choice.
func (m *machine) agreeOnVerdict(a iyra.Action, rej *iyra.Rejection, status int, body []byte) error {
	switch {
	case rej == nil && status/100 != 2:
		return verdict.Failf(setupRule(a), "accepted", status, "%s: %s", a.Canonical(), clip(body))
	case rej != nil && status/100 == 2:
		return verdict.Failf(rej.Rule, "rejected ("+rej.Code+")", status, "%s: %s", a.Canonical(), rej.Message)
	case rej != nil && status/100 != 4:
		return verdict.Failf(rej.Rule, "a 4xx rejection", status, "%s", clip(body))
	case rej != nil && status != kitStatus(rej.Kind):
		m.note("IYRA-STATUS-CODES", kitStatus(rej.Kind), status, "%s rejected as %s", a.Canonical(), rej.Code)
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
	if err := checkPrivateResponse(readResp); err != nil {
		return nil, err
	}
	return s, nil
}

// unchangedBy requires a rejection to leave the whole public state as it
// was, revision included: "rejected without changing state".
func unchangedBy(rule string, before, after *sessionDoc) error {
	was, is := publicState(before), publicState(after)
	if was != is {
		return verdict.Failf(rule, was, is, "the state after a rejected action")
	}
	return nil
}

// publicState renders everything a session answer shows, for comparisons.
func publicState(s *sessionDoc) string {
	obs, _ := json.Marshal(s.Observation)
	return fmt.Sprintf("revision %d, status %q, terminal %s, outcome %q, score %s, legal %v, observation %s",
		s.rev(), s.Status, fmtBool(s.Terminal), s.Outcome, fmtPtr(s.Score), legalTypes(s), obs)
}

// legalTypes is the set of action types a session lists.
func legalTypes(s *sessionDoc) []string {
	var out []string
	for _, la := range s.LegalActions {
		if !slices.Contains(out, la.Type) {
			out = append(out, la.Type)
		}
	}
	sort.Strings(out)
	return out
}

// change is what one step did, for naming the rule a divergence breaks.
type change struct {
	a              iyra.Action
	rej            *iyra.Rejection
	firstSelection bool
	prev           *sessionDoc
}

// follow keeps the readings the target still agrees with on every MUST
// field. None left is a failure, named after the kit's reading's first
// divergence; when only readings that depart from a REFERENCE choice are
// left, that choice is noted. The soft fields are then compared with the
// first reading left.
func (m *machine) follow(c change, got *sessionDoc) error {
	var kept []reading
	var first error
	for _, r := range m.readings {
		err := mustAgree(r.game.View(), got, c)
		if err == nil {
			kept = append(kept, r)
		} else if first == nil {
			first = err
		}
	}
	if len(kept) == 0 {
		return first
	}
	if kept[0].departs != "" && m.readings[0].departs == "" {
		m.note(kept[0].departs, "the kit's reading", "another reading the contract allows", "after %s", c.a.Canonical())
	}
	m.readings = kept
	m.softAgree(kept[0].game.View(), got, c)
	return nil
}

// field is one public value compared between a reading and the target.
type field struct {
	name      string
	rule      string
	want, got any
}

// mustAgree compares the fields the contract fixes, each under its rule.
func mustAgree(want iyra.View, got *sessionDoc, c change) error {
	for _, f := range mustFields(want, got, c) {
		if fmt.Sprint(f.want) != fmt.Sprint(f.got) {
			return verdict.Failf(f.rule, shownValue(f.name, f.want), shownValue(f.name, f.got), "%s after %s (model revision %d)", f.name, c.a.Canonical(), want.Revision)
		}
	}
	return nil
}

// shownValue is a compared value as a finding shows it: an empty string
// says which field is empty ("empty ending"), since a bare "" before
// "observed budget_exhausted" tells a reader nothing.
func shownValue(name string, v any) any {
	if s, ok := v.(string); ok && s == "" {
		return "empty " + name
	}
	return v
}

// mustFields lists the fields the contract fixes, in the order a
// divergence is reported.
func mustFields(want iyra.View, got *sessionDoc, c change) []field {
	w, g := want.Observation, got.Observation
	res := resourceRule(c)
	fields := []field{
		{"evidence", res, w.Evidence, g.Evidence}, {"trust", res, w.Trust, g.Trust}, {"signal", res, w.Signal, g.Signal},
		{"allies entries", "IYRA-ALLY-SET", len(slices.Compact(sorted(g.Allies))), len(g.Allies)},
		{"allies", ruleOr(c, "IYRA-ALLY-SIGNAL"), sorted(w.Allies), sorted(g.Allies)},
		{"archive_checked", ruleOr(c, "IYRA-SITE-REVEAL"), w.ArchiveChecked, g.ArchiveChecked},
		{"harbor_checked", ruleOr(c, "IYRA-SITE-REVEAL"), w.HarborChecked, g.HarborChecked},
		{"spire_checked", ruleOr(c, "IYRA-SITE-REVEAL"), w.SpireChecked, g.SpireChecked},
	}
	prevObs := c.prev.Observation
	for _, t := range [][3]string{
		{"archive_testimony", w.ArchiveTestimony, g.ArchiveTestimony},
		{"harbor_testimony", w.HarborTestimony, g.HarborTestimony},
		{"spire_fact", w.SpireFact, g.SpireFact},
	} {
		fields = append(fields, field{t[0] + " revealed", ruleOr(c, "IYRA-SITE-REVEAL"), t[1] != "", t[2] != ""})
	}
	for _, t := range [][3]string{
		{"archive_testimony", prevObs.ArchiveTestimony, g.ArchiveTestimony},
		{"harbor_testimony", prevObs.HarborTestimony, g.HarborTestimony},
		{"spire_fact", prevObs.SpireFact, g.SpireFact},
	} {
		if t[1] != "" {
			fields = append(fields, field{t[0] + " once revealed", ruleOr(c, "IYRA-SITE-REVEAL"), t[1], t[2]})
		}
	}
	fields = append(fields,
		field{"collected_sources entries", ruleOr(c, "IYRA-SITE-REVEAL"), len(w.CollectedSources), len(g.CollectedSources)},
		field{"selected_claim", claimRule(c), w.SelectedClaim, g.SelectedClaim},
		field{"ending", ruleOr(c, endingRule(w.Ending, c.a)), w.Ending, g.Ending},
		field{"epilogue set outside a broadcast or withdrawal ending", ruleOr(c, "IYRA-EPILOGUE"), false, g.Epilogue != "" && w.Epilogue == ""},
		field{"terminal", "IYRA-TERMINAL-SIGNALS", want.Terminal, fmtBool(got.Terminal)},
		field{"status finished", "IYRA-TERMINAL-SIGNALS", want.Status == iyra.StatusFinished, got.Status == iyra.StatusFinished},
		field{"phase finished", "IYRA-TERMINAL-SIGNALS", w.Phase == iyra.PhaseFinished, g.Phase == iyra.PhaseFinished},
	)
	if !want.Terminal {
		fields = append(fields, field{"legal_actions types", "IYRA-LEGAL-CATALOGUE", slices.Sorted(slices.Values(iyra.ActionTypes)), legalTypes(got)})
	} else {
		fields = append(fields, field{"outcome", "IYRA-OUTCOME", want.Outcome, got.Outcome})
	}
	switch {
	case w.Ending == iyra.TruthReleased:
		fields = append(fields, field{"score", "IYRA-SCORE", want.Score, fmtPtr(got.Score)})
	case w.Ending != "" && got.Score != nil:
		fields = append(fields, field{"score", "IYRA-SCORE-UNVERIFIED", want.Score, fmtPtr(got.Score)})
	}
	switch {
	case c.rej == nil && c.a.Type == iyra.TypeInvestigate:
		fields = append(fields, field{"chapter", "IYRA-CHAPTER-INQUIRY", iyra.ChapterInquiry, g.Chapter})
	case c.rej == nil && w.Chapter != iyra.ChapterInquiry:
		fields = append(fields, field{"chapter left inquiry", "IYRA-CHAPTER-LATEST", true, g.Chapter != iyra.ChapterInquiry})
	}
	return fields
}

// softAgree notes the fields where the contract is silent and the kit
// chose: chapter names, an active session's outcome, scores other than a
// verified ending's, the catalogue after the end, the kit variants' texts.
func (m *machine) softAgree(want iyra.View, got *sessionDoc, c change) {
	w, g := want.Observation, got.Observation
	if w.Chapter != g.Chapter {
		m.note("IYRA-CHAPTER-NAMES", w.Chapter, g.Chapter, "chapter after %s", c.a.Canonical())
	}
	if !want.Terminal && got.Outcome != want.Outcome {
		m.note("IYRA-OUTCOME-IN-PROGRESS", want.Outcome, got.Outcome, "outcome of an active session")
	}
	if w.Epilogue != "" && g.Epilogue == "" {
		m.note("IYRA-EPILOGUE-SET", "a non-empty epilogue", "", "ending %q", g.Ending)
	}
	if w.Ending == "" && fmtPtr(got.Score) != fmt.Sprint(want.Score) {
		m.note("IYRA-SCORE-ZERO", want.Score, fmtPtr(got.Score), "score of an active session")
	}
	if !slices.Equal(sorted(w.CollectedSources), sorted(g.CollectedSources)) {
		m.note("IYRA-COLLECTED-SOURCE-IDS", sorted(w.CollectedSources), sorted(g.CollectedSources), "collected_sources after %s", c.a.Canonical())
	}
	if want.Terminal && len(got.LegalActions) > 0 {
		m.note("IYRA-LEGAL-AFTER-END", 0, len(got.LegalActions), "legal_actions of a finished session")
	}
	if m.kit != nil && (w.ArchiveTestimony != g.ArchiveTestimony || w.HarborTestimony != g.HarborTestimony || w.SpireFact != g.SpireFact) {
		m.note("IYRA-VARIANTS", "the texts of kit variant "+m.kit.ID, fmt.Sprintf("%q / %q / %q", g.ArchiveTestimony, g.HarborTestimony, g.SpireFact), "site texts")
	}
}
