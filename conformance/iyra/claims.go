package iyra

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

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

// consequenceWords are the contract's words for each ally's consequence
// (world.factions): the keepers preserve the evidence with an auditable
// correction, the drifters distribute copies through the Harbor.
var consequenceWords = map[string][]string{"keepers": {"preserv", "correction"}, "drifters": {"copies", "distribut"}}

// containsAnyWord reports whether text holds one of words.
func containsAnyWord(text string, words []string) bool {
	for _, w := range words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}
