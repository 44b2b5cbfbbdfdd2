package iyra

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// factionsSteps registers the steps of features/iyra/factions.feature.
func (w *world) factionsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent has released the truth allied with the keepers$`), w.releasedWithKeepers)
	sc.Step(pattern(`^the agent releases the truth allied with the (keepers|drifters) in a second session on the same records$`), w.releaseSecond)
	sc.Step(pattern(`^the agent releases the truth allied with both factions in a third session on the same records$`), w.releaseWithBoth)
	sc.Step(pattern(`^the epilogue allied with both differs from each single ally's$`), w.bothConsequences)
	sc.Step(pattern(`^both verified endings have the same resources, outcome and score$`), w.endingsAtPar)
	sc.Step(pattern(`^the allies hold each faction once, whatever its case$`), w.alliesOncePerFaction)
	sc.Step(pattern(`^their epilogues differ$`), w.epiloguesDiffer)
	sc.Step(pattern(`^their epilogues are identical$`), w.epiloguesIdentical)
	sc.Step(pattern(`^each epilogue names its ally's consequence in the contract's words$`), w.consequenceWords)
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
	return w.releaseOnFirstRecords(ctx, faction, &w.second)
}

// releaseOnFirstRecords is the When step releasing the truth allied with
// faction in a new session on the first ending's records, into *out.
func (w *world) releaseOnFirstRecords(ctx context.Context, faction string, out **sessionDoc) error {
	if w.first == nil {
		return verdict.Errorf("no first verified ending")
	}
	return w.when(ctx, func() (*driver.Response, error) {
		s, err := w.sessionOnRecords(ctx, w.first)
		if err != nil {
			return nil, err
		}
		*out, err = w.releaseTruth(ctx, s, faction)
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

// releaseWithBoth is the When step releasing the truth on the first
// ending's records allied with both factions, keepers first (the faction
// releaseTruth allies with is a script fragment: "keepers, ally drifters").
func (w *world) releaseWithBoth(ctx context.Context) error {
	return w.releaseOnFirstRecords(ctx, string(iyra.Keepers)+", ally "+string(iyra.Drifters), &w.both)
}

// bothConsequences requires a verified ending allied with both factions
// to state each one's consequence: its epilogue is neither the keepers'
// alone nor the drifters' alone on the same records, since each single
// epilogue leaves the other ally's consequence out
// (IYRA-FACTION-CONSEQUENCE: "states each ally's declared public
// publication consequence").
func (w *world) bothConsequences() error {
	if w.first == nil || w.second == nil || w.both == nil {
		return verdict.Errorf("three verified endings are needed")
	}
	e := w.both.Observation.Epilogue
	for _, single := range []*sessionDoc{w.first, w.second} {
		if e == "" || e == single.Observation.Epilogue {
			return verdict.Failf("IYRA-FACTION-CONSEQUENCE", "an epilogue stating both allies' consequences", e,
				"the epilogue allied with %v only is %q", single.Observation.Allies, single.Observation.Epilogue)
		}
	}
	return nil
}

// alliesOncePerFaction fails when the latest state lists one faction twice,
// its spellings folded by case: "whatever is submitted" (IYRA-ALLY-SET)
// includes a faction name in capitals. Whether such a name is refused as
// unknown or taken as the faction is left open; a second entry is not.
func (w *world) alliesOncePerFaction() error {
	if err := w.needSession(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, f := range w.sess.Observation.Allies {
		key := strings.ToLower(f)
		if seen[key] {
			return verdict.Failf(w.rule(), "each faction once", w.sess.Observation.Allies, "allies")
		}
		seen[key] = true
	}
	return nil
}
