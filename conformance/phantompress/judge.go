package phantompress

import (
	"errors"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

// catalogue is The Phantom Press's rule catalogue, loaded once: checks that
// find several problems at once need each rule's level to put the binding
// ones first.
var catalogue = sync.OnceValue(func() *spec.Catalogue {
	c, err := spec.Load("phantom-press")
	if err != nil {
		panic("phantom-press catalogue: " + err.Error())
	}
	return c
})

// isMust reports whether err is a failure of a MUST rule (an unknown rule
// counts as MUST, as the runner counts it).
func isMust(err error) bool {
	var f *verdict.Failure
	return errors.As(err, &f) && catalogue().LevelOf(f.RuleID) == verdict.Must
}

// judge folds the findings of one check so that the most severe decides: a
// MUST failure is returned and every other finding is noted beside it; with
// no MUST failure, SHOULD and REFERENCE failures are only noted (each its own
// warning, never the end of the check) and the first harness error or skip
// is returned. note may be nil (the findings are then dropped).
func judge(note func(error), errs ...error) error {
	var must, other error
	for _, err := range errs {
		var f *verdict.Failure
		switch {
		case err == nil:
		case isMust(err) && must == nil:
			must = err
		case errors.As(err, &f):
			if note != nil {
				note(err)
			}
		case other == nil:
			other = err
		}
	}
	if must != nil {
		return must
	}
	return other
}

// note records a soft finding of the model (a REFERENCE departure, or a
// further problem beside the failure a check returns).
func (m *Model) note(err error) {
	if err == nil {
		return
	}
	if m.Note != nil {
		m.Note(err)
		return
	}
	m.Pending = append(m.Pending, err)
}
