package pyyol

import (
	"context"
	"strings"
)

// mafiaRun is one Mafia scenario: the kit as one agent seat at a 12-seat
// practice table, its match judged from what that seat saw.
type mafiaRun struct {
	g  *gwRun
	mm *mafiaMatch
}

// play plays one match as the role asked for; first names how the first
// turn is answered.
func (r *mafiaRun) play(ctx context.Context, role, first string) error {
	how := "answer"
	switch {
	case strings.Contains(first, "missing"):
		how = "silent"
	case strings.Contains(first, "illegally"):
		how = "illegal"
	}
	mm, err := r.g.playMafia(ctx, role, how)
	r.mm = mm
	return err
}

// check runs a judgement of the played match; findings (SHOULD and
// REFERENCE notes) go to the run's recorder and never end the check.
func (r *mafiaRun) check(judge func(*mafiaMatch, func(error)) error) func() error {
	return func() error {
		if r.mm == nil {
			return nil
		}
		return judge(r.mm, r.g.env.HTTP.Recorder().Finding)
	}
}

func noFinding(judge func(*mafiaMatch) error) func(*mafiaMatch, func(error)) error {
	return func(mm *mafiaMatch, _ func(error)) error { return judge(mm) }
}
