package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayLimitsSteps registers the steps of features/pyyol/gateway-limits.feature.
func (p *platRun) gatewayLimitsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the owner sets (max_bid|coin_limit_per_match|daily_loss_limit|session_loss_limit|cooldown_losses|cooldown_seconds|max_concurrent_matches) to (\d+)$`), p.ownerSets)
	sc.Step(pattern(`^the agent loses a ranked match at tier "([a-z_]+)"$`), p.loseRanked)
	sc.Step(pattern(`^the queue refuses the entry under the (loss caps|cooldown|concurrency cap)$`), p.entryRefused)
	sc.Step(pattern(`^(\d+) seconds pass$`), p.secondsPass)
	sc.Step(pattern(`^the agent plays its practice match to the end$`), p.practiceToEnd)
	sc.Step(pattern(`^the ranked match is under way$`), p.matchUnderWay)
	sc.Step(pattern(`^the agent loses a practice match$`), p.losePractice)
	sc.Step(pattern(`^the wallet is as it was before the practice match$`), p.walletUnchanged)
}

// ownerSets sets one of the agent's guardrails; a target that does not
// take it (the loss-cap and cooldown names are the kit's,
// PYYOL-REF-LIMIT-FIELDS) skips the scenario.
func (p *platRun) ownerSets(ctx context.Context, field string, n int64) error {
	return p.setLimit(ctx, field, "", n)
}

// matchOutcome is how a finished match ended for the agent's seat: 1 won,
// 0 tied, -1 lost; staked says whether game_end carried a stake record
// (PYYOL-REF-QUEUE).
func (p *platRun) matchOutcome() (outcome int, staked bool) {
	var res struct {
		Winner int             `json:"winner"`
		Stake  json.RawMessage `json:"stake"`
	}
	json.Unmarshal(p.g.end.Result, &res)
	staked = len(res.Stake) > 0 && string(res.Stake) != "null"
	switch res.Winner {
	case -1:
		return 0, staked
	case p.g.seat:
		return 1, staked
	}
	return -1, staked
}

// playStaked plays matches with b until one ends with a stake record;
// a practice match before it is played through.
func (p *platRun) playStaked(ctx context.Context, b behaviour) (int, error) {
	for played := 0; played < 3; played++ {
		p.g.end = nil
		if err := p.g.play(ctx, b); err != nil {
			return 0, err
		}
		if outcome, staked := p.matchOutcome(); staked {
			return outcome, nil
		}
	}
	return 0, verdict.Skipf("three matches ended without a stake record in game_end (PYYOL-REF-QUEUE): the ranked outcome cannot be read")
}

// loseRanked queues at tier and plays, bidding the lowest card, until a
// ranked match is lost (three tries). A first stake the target refuses
// leaves the check undecided: a stricter reading of the cap than the
// kit's may refuse it.
func (p *platRun) loseRanked(ctx context.Context, tier string) error {
	for try := 0; try < 3; try++ {
		if err := p.queue(ctx, " at tier", tier); err != nil {
			return err
		}
		if p.Last.Status/100 != 2 {
			return verdict.Skipf("the target refused the stake before any loss (%d %s): what the guardrail does after a loss cannot be read",
				p.Last.Status, p.g.env.HTTP.Secrets().Clip(p.Last.Body))
		}
		outcome, err := p.playStaked(ctx, behaviour{round0: "answer", lose: true})
		if err != nil || outcome < 0 {
			return err
		}
	}
	return verdict.Skipf("three ranked matches bidding the lowest card were not lost: the guardrail after a loss cannot be read")
}

// otherRefusals are the documented refusals of the queue that say
// something else than a guardrail (ranked.md "Errors you might see").
var otherRefusals = map[string]bool{"not_certified": true, "tier_required": true, "unknown_tier": true}

// entryRefused: the queue refused the entry. The docs name no code for
// these guardrails, so any 4xx but 404 (not served) and the documented
// refusals that mean something else is one.
func (p *platRun) entryRefused(guard string) error {
	rule := map[string]string{"loss caps": "PYYOL-STAKES-LOSS-CAPS", "cooldown": "PYYOL-STAKES-COOLDOWN",
		"concurrency cap": "PYYOL-STAKES-CONCURRENT"}[guard]
	if p.Last.Status == 404 {
		return verdict.Skipf("the queue answered 404 (not served) to the second entry")
	}
	code, _ := p.decode()["error"].(string)
	if p.Last.Status < 400 || p.Last.Status > 499 || otherRefusals[normalizeCode(code)] {
		return verdict.Failf(rule, "a 4xx refusal of the entry", p.Last.Status, "the queue's answer; body %s", p.g.env.HTTP.Secrets().Clip(p.Last.Body))
	}
	return nil
}

// secondsPass waits n seconds: real time against a live target, answering
// the gateway's pings meanwhile (a silent agent may be marked Offline);
// the embedded reference's clock otherwise.
func (p *platRun) secondsPass(ctx context.Context, n int) error {
	d := time.Duration(n) * time.Second
	if p.g.env.Clock != nil || p.g.ws == nil {
		return p.g.env.Wait(ctx, d)
	}
	by := time.Now().Add(d)
	for time.Now().Before(by) {
		raw, err := p.g.read(ctx, by)
		if errors.Is(err, driver.ErrTimeout) {
			break
		}
		if err != nil {
			return err
		}
		if f, err := p.g.accept(raw); err == nil && f.T == "ping" {
			p.g.ws.Send(ctx, pongFor(f))
		}
	}
	return nil
}

// practiceToEnd plays the match the registration started to game_end.
func (p *platRun) practiceToEnd(ctx context.Context) error {
	p.g.end = nil
	return p.g.play(ctx, behaviour{round0: "answer"})
}

// matchUnderWay reads frames until the next match's initialize or first
// turn, answering pings.
func (p *platRun) matchUnderWay(ctx context.Context) error {
	for {
		f, err := p.g.nextOf(ctx, false)
		if err != nil {
			return err
		}
		switch f.T {
		case "ping":
			p.g.ws.Send(ctx, pongFor(f))
		case "initialize", "turn":
			return nil
		}
	}
}

// losePractice notes the wallet, then plays practice matches bidding the
// lowest card until one is lost (three tries, a fresh registration each).
func (p *platRun) losePractice(ctx context.Context) error {
	if err := p.readWallet(ctx); err != nil {
		return err
	}
	p.wallet0 = p.lastWallet()
	for try := 0; ; try++ {
		p.g.end = nil
		if err := p.g.play(ctx, behaviour{round0: "answer", lose: true}); err != nil {
			return err
		}
		if outcome, staked := p.matchOutcome(); outcome < 0 || staked || try == 2 {
			return nil
		}
		p.g.ws.Close()
		if err := p.g.connect(ctx); err != nil {
			return err
		}
	}
}

// walletUnchanged: the practice match moved no coins
// (PYYOL-SANDBOX-NO-STAKES).
func (p *platRun) walletUnchanged(ctx context.Context) error {
	if err := p.readWallet(ctx); err != nil {
		return err
	}
	before, after := p.wallet0["balance"], p.lastWallet()["balance"]
	if after != before {
		return verdict.Failf("PYYOL-SANDBOX-NO-STAKES", before, after, "the wallet balance after a practice match (sandbox: no stakes, no coins)")
	}
	return nil
}
