package iyra

import (
	"context"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// claimSteps registers the steps that need a verified ending on records
// whose corroborated claim the runner first has to learn.
func (w *world) claimSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the agent has released the truth allied with the keepers$`), w.releasedWithKeepers)
	sc.Step(pattern(`^the agent releases the truth allied with the (keepers|drifters) in a second session on the same records$`), w.releaseSecond)
	sc.Step(pattern(`^both verified endings have the same resources, outcome and score$`), w.endingsAtPar)
	sc.Step(pattern(`^their epilogues differ$`), w.epiloguesDiffer)
	sc.Step(pattern(`^their epilogues are identical$`), w.epiloguesIdentical)
	sc.Step(pattern(`^each epilogue names its ally's consequence in the contract's words$`), w.consequenceWords)
}

// records are the two public records corroboration is judged on.
type records struct{ Archive, Spire string }

// recordsOf returns the Archive and Spire records a session revealed.
func recordsOf(s *sessionDoc) records {
	return records{Archive: s.Observation.ArchiveTestimony, Spire: s.Observation.SpireFact}
}

// kitClaim returns the claim a kit variant's records corroborate, when the
// records are the kit's own texts (IYRA-VARIANT-CLAIM).
func kitClaim(r records) (iyra.Claim, bool) {
	for _, v := range iyra.DefaultPack().Variants {
		if v.ArchiveTestimony == r.Archive && v.SpireFact == r.Spire {
			return v.Corroborates, true
		}
	}
	return "", false
}

// corroborated returns the claim the records of session s corroborate. For
// the kit's own records that is the fixtures' claim; for a target's own
// records the runner learns it from the target, once per run and records:
// it plays relay_fault to a broadcast in a probe session on the same
// records. Whichever claim that shows, exactly one of the two must release
// the truth (IYRA-ENDING-SUCCESS, IYRA-ENDING-UNVERIFIED), so a target
// releasing both or neither is still caught by the scenario itself.
func (w *world) corroborated(ctx context.Context, s *sessionDoc) (iyra.Claim, error) {
	r := recordsOf(s)
	if r.Archive == "" || r.Spire == "" {
		return "", verdict.Failf("IYRA-SITE-REVEAL", "the Archive and Spire records revealed", fmt.Sprintf("%+v", r), "after inspecting both sites")
	}
	if c, ok := kitClaim(r); ok {
		w.claim = "the kit's fixtures"
		return c, nil
	}
	v, err := w.env.Shared.Once("iyra/claim/"+r.Archive+"\x00"+r.Spire, func() (any, error) { return w.probeClaim(ctx, s) })
	if err != nil {
		return "", err
	}
	w.claim = "a probe session on the same records"
	return v.(iyra.Claim), nil
}

// probeClaim plays relay_fault to a broadcast on the records of s with every
// threshold met: truth_released means relay_fault is corroborated, any
// other ending that record_omission is.
func (w *world) probeClaim(ctx context.Context, s *sessionDoc) (any, error) {
	probe, err := w.sessionOnRecords(ctx, s)
	if err != nil {
		return nil, err
	}
	probe, err = w.playScript(ctx, probe, "investigate harbor, ally keepers, select_claim relay_fault, broadcast")
	if err != nil {
		return nil, err
	}
	if probe.Observation.Ending == iyra.TruthReleased {
		return iyra.RelayFault, nil
	}
	return iyra.RecordOmission, nil
}

// sameRecordsTries bounds the sessions sessionOnRecords and secondSession
// may open on a target that does not honour the variant field: with three
// variants drawn at random, ten tries miss in fewer than one run in fifty.
const sameRecordsTries = 10

// sessionOnRecords opens another session revealing the same Archive and
// Spire records as s, asking for s's variant where the target names one,
// and returns it after those two inspections.
func (w *world) sessionOnRecords(ctx context.Context, s *sessionDoc) (*sessionDoc, error) {
	want := recordsOf(s)
	for range sameRecordsTries {
		next, _, err := w.anySession(ctx, s.Variant)
		if err != nil {
			return nil, err
		}
		if next, err = w.playScript(ctx, next, "investigate archive"); err != nil {
			return nil, err
		}
		if recordsOf(next).Archive != want.Archive {
			continue // another variant: spare the second inspection
		}
		if next, err = w.playScript(ctx, next, "investigate spire"); err != nil {
			return nil, err
		}
		if recordsOf(next) == want {
			return next, nil
		}
	}
	return nil, verdict.Skipf("no session on the same records in %d tries", sameRecordsTries)
}

// releaseTruth plays a session already holding the Archive and Spire
// records to a verified broadcast allied with faction.
func (w *world) releaseTruth(ctx context.Context, s *sessionDoc, faction string) (*sessionDoc, error) {
	claim, err := w.corroborated(ctx, s)
	if err != nil {
		return nil, err
	}
	s, err = w.playScript(ctx, s, "investigate harbor, ally "+faction+", select_claim "+string(claim)+", broadcast")
	if err != nil {
		return nil, err
	}
	if s.Observation.Ending != iyra.TruthReleased {
		return nil, verdict.Failf("IYRA-ENDING-SUCCESS", iyra.TruthReleased, s.Observation.Ending,
			"broadcasting %s, corroborated by %s, with evidence %d and signal %d", claim, w.claim, s.Observation.Evidence, s.Observation.Signal)
	}
	return s, nil
}

// releasedWithKeepers is the Given step: a verified ending allied with the
// keepers, kept as the first of two sessions.
func (w *world) releasedWithKeepers(ctx context.Context) error {
	s, err := w.playScript(ctx, w.sess, "investigate archive, investigate spire")
	if err != nil {
		return err
	}
	w.sess = s
	w.first, err = w.releaseTruth(ctx, s, string(iyra.Keepers))
	return err
}

// releaseSecond is the When step: the same play on the same records,
// allied with faction (the drifters to compare, the keepers again to
// show the epilogue follows from the ally and records alone).
func (w *world) releaseSecond(ctx context.Context, faction string) error {
	if w.first == nil {
		return verdict.Errorf("no first verified ending")
	}
	return w.when(ctx, func() (*driver.Response, error) {
		s, err := w.sessionOnRecords(ctx, w.first)
		if err != nil {
			return nil, err
		}
		w.second, err = w.releaseTruth(ctx, s, faction)
		return nil, err
	})
}

// endingsAtPar requires the two verified endings to agree on everything
// but the allies and the epilogue: no hidden faction bonus or penalty at
// the ending or in the score (IYRA-FACTION-PARITY).
func (w *world) endingsAtPar() error {
	if w.first == nil || w.second == nil {
		return verdict.Errorf("two verified endings are needed")
	}
	summary := func(s *sessionDoc) string {
		o := s.Observation
		return fmt.Sprintf("evidence %d, trust %d, signal %d, ending %s, outcome %s, score %s",
			o.Evidence, o.Trust, o.Signal, o.Ending, s.Outcome, fmtPtr(s.Score))
	}
	if a, b := summary(w.first), summary(w.second); a != b {
		return verdict.Failf("IYRA-FACTION-PARITY", a, b, "allied with the keepers, then with the drifters")
	}
	return nil
}

// epiloguesDiffer requires the declared publication consequence of each
// ally in its verified epilogue: the two epilogues differ
// (IYRA-FACTION-CONSEQUENCE). That alone a per-session nonce would pass;
// epiloguesIdentical checks the same ally gives the same epilogue.
func (w *world) epiloguesDiffer() error {
	if w.first == nil || w.second == nil {
		return verdict.Errorf("two verified endings are needed")
	}
	a, b := w.first.Observation.Epilogue, w.second.Observation.Epilogue
	if a == "" || b == "" || a == b {
		return verdict.Failf("IYRA-FACTION-CONSEQUENCE", "two different epilogues, each with its ally's consequence", b,
			"keepers epilogue %q", a)
	}
	return nil
}

// epiloguesIdentical requires two verified endings with the same ally on
// the same records to carry the same epilogue: the consequence is the
// ally's, so what tells the two factions' epilogues apart must be the ally,
// not the session (IYRA-FACTION-CONSEQUENCE).
func (w *world) epiloguesIdentical() error {
	if w.first == nil || w.second == nil {
		return verdict.Errorf("two verified endings are needed")
	}
	a, b := w.first.Observation.Epilogue, w.second.Observation.Epilogue
	if a == "" || a != b {
		return verdict.Failf("IYRA-FACTION-CONSEQUENCE", a, b,
			"the epilogues of two verified endings allied with %v on the same records", w.second.Observation.Allies)
	}
	return nil
}

// consequenceWords are the contract's words for each ally's consequence
// (world.factions): the keepers preserve the evidence with an auditable
// correction, the drifters distribute copies through the Harbor.
var consequenceWords = map[string][]string{"keepers": {"preserv", "correction"}, "drifters": {"copies", "distribut"}}

// consequenceWords checks each verified epilogue (keepers first, drifters
// second) carries its ally's words and not the other ally's
// (IYRA-FACTION-WORDS, the kit's reading: epilogues are free text, and a
// deployment may word them otherwise).
func (w *world) consequenceWords() error {
	if w.first == nil || w.second == nil {
		return verdict.Errorf("two verified endings are needed")
	}
	for ally, s := range map[string]*sessionDoc{"keepers": w.first, "drifters": w.second} {
		other := "drifters"
		if ally == "drifters" {
			other = "keepers"
		}
		text := strings.ToLower(s.Observation.Epilogue)
		if !containsAnyWord(text, consequenceWords[ally]) || containsAnyWord(text, consequenceWords[other]) {
			return verdict.Failf("IYRA-FACTION-WORDS", fmt.Sprintf("the %s' consequence (%v), not the %s'", ally, consequenceWords[ally], other),
				s.Observation.Epilogue, "verified epilogue allied with the %s", ally)
		}
	}
	return nil
}

// containsAnyWord reports whether text holds one of words.
func containsAnyWord(text string, words []string) bool {
	for _, w := range words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}
