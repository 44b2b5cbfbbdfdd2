package pyyol

import (
	"context"
	"strings"

	"github.com/cucumber/godog"
)

// mafiaRun is one Mafia scenario: the kit as one agent seat at a 12-seat
// practice table, its match judged from what that seat saw.
type mafiaRun struct {
	g  *gwRun
	mm *mafiaMatch
}

// mafiaSteps binds the Mafia steps; the key and connection steps are the
// gateway's own (g).
func mafiaSteps(sc *godog.ScenarioContext, g *gwRun) {
	r := &mafiaRun{g: g}
	sc.Step(pattern(`^the agent plays a Mafia match as (?:a |an |the )?(Mafia|Detective|Doctor|Sheriff|Villager)( missing its first turn| answering its first turn illegally)?$`), r.play)
	sc.Step(pattern(`^every Mafia view followed the turn view rules$`), r.check(checkMafiaViews))
	sc.Step(pattern(`^every Mafia view was redacted to the seat$`), r.check(noFinding(checkMafiaRedaction)))
	sc.Step(pattern(`^the Mafia events were the documented events$`), r.check(noFinding(checkMafiaEvents)))
	sc.Step(pattern(`^every Mafia view and the game_end carried the whole transcript$`), r.check(noFinding(checkMafiaTranscript)))
	sc.Step(pattern(`^the phases followed the Mafia cycle$`), r.check(noFinding(checkMafiaPhases)))
	sc.Step(pattern(`^the agent plays Mafia matches as a (Mafia|Detective|Doctor|Sheriff|Villager) until it ties a vote$`), r.playForTie)
	sc.Step(pattern(`^every vote eliminated the plurality target$`), r.check(checkMafiaVotes))
	sc.Step(pattern(`^the match ended as soon as a team had won$`), r.check(checkMafiaEnd))
	sc.Step(pattern(`^the agent's night actions had their documented results$`), r.check(noFinding(checkMafiaNightResults)))
	sc.Step(pattern(`^the agent's moves were played as answered$`), r.check(checkMafiaMoves))
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
