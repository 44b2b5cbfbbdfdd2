package iyra

import (
	"context"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/reference/iyra"
)

// submitVariant submits an action with a deliberately wrong envelope: a
// stale revision (the one before the latest, or after it at revision 0),
// one ahead of the latest (AC04: the body carries the latest revision, so
// a guard refusing only older ones is caught), none, or one inside the
// action.
func (w *world) submitVariant(ctx context.Context, script, how string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	a := parseScript(script)[0]
	rev := w.sess.rev()
	w.learnParams(w.sess)
	var body map[string]any
	switch how {
	case "stale":
		stale := rev - 1
		if stale < 0 {
			stale = rev + 1
		}
		body = w.envelope(w.sess, stale, a)
	case "ahead":
		body = w.envelope(w.sess, rev+1, a)
	case "missing":
		body = map[string]any{"action": w.wire(a)}
	case "inside":
		inner := map[string]any{"type": a.Type, "revision": rev}
		w.addParam(inner, a)
		body = map[string]any{"action": inner}
	}
	return w.when(ctx, func() (*driver.Response, error) { return w.submit(ctx, w.sess, body, nil) })
}

// addParam copies an action's declared parameter into a raw action object.
func (w *world) addParam(m map[string]any, a iyra.Action) {
	for k, v := range map[string]string{"site": a.Site, "faction": a.Faction, w.claimName(): a.Claim} {
		if v != "" {
			m[k] = v
		}
	}
}

// otherClaim returns the claim that is not c.
func otherClaim(c iyra.Claim) iyra.Claim {
	if c == iyra.RelayFault {
		return iyra.RecordOmission
	}
	return iyra.RelayFault
}

// diffObs compares observations, ignoring the order of the set-valued
// allies (IYRA-ALLY-SET) but not of collected_sources.
func diffObs(want, got iyra.Observation) string {
	sortSet := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	return cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool {
		return strings.Contains(p.GoString(), "Allies")
	}, sortSet), cmpopts.EquateEmpty())
}

// declaredParams are the parameter values each parameterised action type
// declares in the contract (world.locations, world.factions,
// investigation.claims), the parameter's name first. The contract names
// investigate's (site, learning.first_move) and ally's (faction,
// invalid_action_examples) but not select_claim's: "claim" is the kit's
// (IYRA-LEGAL-SHAPE).
var declaredParams = map[string][]string{
	iyra.TypeInvestigate: {"site", "archive", "harbor", "spire"},
	iyra.TypeAlly:        {"faction", "keepers", "drifters"},
	iyra.TypeSelectClaim: {"claim", "relay_fault", "record_omission"},
}
