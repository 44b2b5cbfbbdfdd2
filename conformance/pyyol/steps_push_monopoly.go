package pyyol

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// pushMonopolySteps binds the Monopoly steps of the push side: the kit
// plays the platform for a whole Monopoly match against the agent
// endpoint (p).
func pushMonopolySteps(sc *suite.ScenarioContext, p *pushRun) {
	var ref *MonopolyReferee
	sc.Step(pattern(`^the platform plays a refereed Monopoly match with the agent at seat (\d+) of (\d+)$`),
		func(ctx context.Context, seat, players int) error {
			if err := p.requireGame(ctx, "monopoly"); err != nil {
				return err
			}
			ref = &MonopolyReferee{Referee: *p.referee(),
				Seat: seat, Players: players}
			_, err := ref.Play(ctx)
			p.sent = append(p.sent, ref.Sent...)
			return err
		})
	sc.Step(pattern(`^every Monopoly move was legal and the match reached its end$`), func() error {
		if ref == nil || len(ref.Turns) == 0 {
			return verdict.Errorf("the Monopoly match did not run")
		}
		return nil
	})
}
