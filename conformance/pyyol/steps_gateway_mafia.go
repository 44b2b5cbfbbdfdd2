package pyyol

import (
	"context"
	"errors"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayMafiaSteps registers the steps of features/pyyol/gateway-mafia.feature.
func (r *mafiaRun) gatewayMafiaSteps(sc *suite.ScenarioContext) {
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
	sc.Step(pattern(`^eliminated seats stayed out and the day counter kept time$`), r.check(noFinding(checkMafiaLife)))
}

// playForTie plays Mafia matches as role, voting for ties (tieVote),
// until one match had a real tie for the most votes; with none in
// maxTieMatches the tie rule is left undecided (a skip).
func (r *mafiaRun) playForTie(ctx context.Context, role string) error {
	for range maxTieMatches {
		mm, err := r.g.playMafia(ctx, role, "tie")
		if r.g.ws != nil {
			r.g.ws.Close()
		}
		var skip *verdict.Skipped
		if errors.As(err, &skip) {
			continue // the seat died before it voted
		}
		r.mm = mm
		if err != nil || hadTie(mm) {
			return err
		}
	}
	return verdict.Skipf("no vote tie arose in %d matches: the tie rule is undecided", maxTieMatches)
}
