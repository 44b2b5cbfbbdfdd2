package iyra

import (
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// pairRun is one session of a boundary pair: its claim and its last state
// before and after the broadcast.
type pairRun struct {
	claim  iyra.Claim
	before *sessionDoc
	after  *sessionDoc
}

// remainingSites drops the Archive and the Spire, which sessionOnRecords
// has already inspected, from a script of inspections.
func remainingSites(script string) string {
	out := ""
	for _, a := range parseScript(script) {
		if a.Type == iyra.TypeInvestigate && a.Site != string(iyra.Archive) && a.Site != string(iyra.Spire) {
			if out != "" {
				out += ", "
			}
			out += "investigate " + a.Site
		}
	}
	return out
}

// endings lists the pair's endings by claim, for failure messages.
func (w *world) endings() string {
	out := ""
	for _, p := range w.pair {
		out += fmt.Sprintf("%s: %s; ", p.claim, p.after.Observation.Ending)
	}
	return out
}

// released counts the pair's broadcasts that released the truth.
func (w *world) released() (int, error) {
	if len(w.pair) != 2 {
		return 0, verdict.Errorf("the scenario played no pair of broadcasts")
	}
	n := 0
	for _, p := range w.pair {
		if p.after.Observation.Ending == iyra.TruthReleased {
			n++
		}
	}
	return n, nil
}
