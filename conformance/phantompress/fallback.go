package phantompress

import (
	"errors"

	"github.com/agentgames/conformance/conformance/verdict"
)

// openDocs lists the documents of the case not read yet.
func (w *world) openDocs() []string {
	var out []string
	for _, d := range w.m.State.Case.Documents {
		if !d.Read {
			out = append(out, d.ID)
		}
	}
	return out
}

// openTopics lists the witness topics of the case not asked yet.
func (w *world) openTopics() []string {
	var out []string
	for _, wt := range w.m.State.Case.Witnesses {
		for _, t := range wt.Topics {
			if !t.Interviewed {
				out = append(out, t.Source)
			}
		}
	}
	return out
}

// shapeGate reports a target that answers outside one of the kit's
// REFERENCE shapes, which a step needs to decide its scenario's rule: in a
// scenario of that very REFERENCE rule it is the warning itself; in any
// other it is noted as a warning and the step skips as unchecked, since a
// MUST rule must neither fail on the kit's shape nor pass unchecked.
func (w *world) shapeGate(rule string, expected, observed any, detail string, args ...any) error {
	f := verdict.Failf(rule, expected, observed, detail, args...)
	if w.rule() == rule {
		return f
	}
	w.noteFinding(f)
	return verdict.Skipf("unchecked: %s on this target lacks the kit's shape (%s)", w.rule(), rule)
}

// shapeGated is shapeGate for a finding a helper already built (a decode
// under a REFERENCE shape's rule): the finding itself in a scenario of its
// own rule, else noted with the step skipped as unchecked. Any other error
// passes through.
func (w *world) shapeGated(err error) error {
	var f *verdict.Failure
	if !errors.As(err, &f) || w.rule() == f.RuleID {
		return err
	}
	w.noteFinding(err)
	return verdict.Skipf("unchecked: %s on this target lacks the kit's shape (%s)", w.rule(), f.RuleID)
}
