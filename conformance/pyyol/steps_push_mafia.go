package pyyol

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// pushMafiaSteps binds the Mafia steps of the push side: the kit plays the
// platform for a whole Mafia match against the agent endpoint (p).
func pushMafiaSteps(sc *suite.ScenarioContext, p *pushRun) {
	var ref *MafiaReferee
	sc.Step(pattern(`^the platform plays a refereed Mafia match with the agent as (?:a |an |the )?(Mafia|Detective|Doctor|Sheriff|Villager)$`),
		func(ctx context.Context, role string) error {
			if err := p.requireMafia(ctx); err != nil {
				return err
			}
			ref = &MafiaReferee{Referee: *p.referee(),
				Seat: mafiaSeat, Role: role}
			_, err := ref.Play(ctx)
			p.sent = append(p.sent, ref.Sent...)
			return err
		})
	sc.Step(pattern(`^every Mafia move was legal and the match reached its end$`), func() error {
		if ref == nil || len(ref.Turns) == 0 {
			return verdict.Errorf("the Mafia match did not run")
		}
		return nil
	})
}
