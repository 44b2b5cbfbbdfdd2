package pyyol

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayRankedSteps registers the steps of features/pyyol/gateway-ranked.feature.
func (p *platRun) gatewayRankedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent queues for goofspiel( without a tier| at tier "([a-z_]+)")$`), p.queue)
	sc.Step(pattern(`^the queue refuses with "([a-z_ ]+)"$`), p.queueRefused)
	sc.Step(pattern(`^the queue refuses the stake$`), p.stakeRefused)
	sc.Step(pattern(`^the queue accepts$`), p.queueAccepted)
	sc.Step(pattern(`^the agent's (max_bid|min_wallet_balance|coin_limit_per_match) is set to (balance minus )?(\d+)$`), p.setLimit)
	sc.Step(pattern(`^the agent plays until a ranked game_end( bidding the prize card)?$`), p.playRanked)
	sc.Step(pattern(`^the wallet changed as the settlement table says$`), p.settled)
	sc.Step(pattern(`^a certified agent$`), p.certified)
}

func (p *platRun) queue(ctx context.Context, how, tierKey string) error {
	if p.wallet0 == nil {
		if err := p.readWallet(ctx); err == nil {
			p.wallet0 = p.lastWallet()
		}
	}
	body := map[string]any{}
	if tierKey != "" {
		body["tier"] = tierKey
	}
	if err := p.call(ctx, "POST", "/games/goofspiel/queue", body, p.g.token); err != nil {
		return err
	}
	if p.Last.Status == 404 && p.decode()["error"] == nil {
		return verdict.Skipf("the target has no queue endpoint (PYYOL-REF-QUEUE: the docs name only the CLI verb)")
	}
	return nil
}

func (p *platRun) queueRefused(code string) error {
	rule := "PYYOL-RANKED-TIER"
	if normalizeCode(code) == "not_certified" {
		rule = "PYYOL-RANKED-CERTIFIED"
	}
	return p.refusedWith(rule, code)
}

func (p *platRun) stakeRefused() error {
	return p.refusedWith("PYYOL-STAKES-LIMITS", "insufficient_balance", "insufficient balance", "over_max_bid", "over_coin_limit_per_match")
}

func (p *platRun) queueAccepted() error {
	if p.Last.Status/100 != 2 {
		return verdict.Failf("PYYOL-STAKES-LIMITS", "2xx", p.Last.Status, "queueing within the limits; body %s", p.g.env.HTTP.Secrets().Clip(p.Last.Body))
	}
	return nil
}

func (p *platRun) setLimit(ctx context.Context, field, minus string, n int64) error {
	if err := p.readWallet(ctx); err != nil {
		return err
	}
	if minus != "" {
		n = p.lastWallet()["balance"] - n
	}
	if err := p.call(ctx, "PUT", "/agents/"+p.g.agentID+"/limits", map[string]int64{field: n}, p.g.token); err != nil {
		return err
	}
	if p.Last.Status != 200 {
		return verdict.Skipf("the target has no limits endpoint (PYYOL-REF-QUEUE)")
	}
	return nil
}

// playRanked plays matches on the socket until one ends with a stake.
func (p *platRun) playRanked(ctx context.Context, prize string) error {
	for played := 0; ; played++ {
		if played == 3 {
			return verdict.Skipf("three matches ended without a stake record in game_end (PYYOL-REF-QUEUE): the settlement cannot be read")
		}
		p.g.end = nil
		if err := p.g.play(ctx, behaviour{round0: "answer", bidPrize: prize != ""}); err != nil {
			return err
		}
		var res struct {
			Stake json.RawMessage `json:"stake"`
		}
		json.Unmarshal(p.g.end.Result, &res)
		if len(res.Stake) > 0 && string(res.Stake) != "null" {
			return nil
		}
	}
}

func (p *platRun) settled(ctx context.Context) error {
	var res struct {
		Winner int `json:"winner"`
		Stake  struct {
			Coins, Rake, Delta int64
		} `json:"stake"`
	}
	json.Unmarshal(p.g.end.Result, &res)
	if err := p.readWallet(ctx); err != nil {
		return err
	}
	delta := p.lastWallet()["balance"] - p.wallet0["balance"]
	s := res.Stake.Coins
	var want string
	ok := false
	switch res.Winner {
	case -1:
		want, ok = "0 (stake returned)", delta == 0
	case p.g.seat:
		want, ok = fmt.Sprintf("S − rake = %d − %d", s, res.Stake.Rake), delta == s-res.Stake.Rake && delta > 0
	default:
		want, ok = fmt.Sprintf("−S = %d", -s), delta == -s
	}
	if !ok {
		return verdict.Failf("PYYOL-STAKES-SETTLEMENT", want, delta, "the wallet's change after a ranked match won by %d (agent seat %d)", res.Winner, p.g.seat)
	}
	return nil
}

// certified publishes and verifies a manifest for the scenario's agent.
func (p *platRun) certified(ctx context.Context) error {
	if err := p.hostEndpoint("healthy"); err != nil {
		return err
	}
	steps := []func(context.Context) error{
		func(ctx context.Context) error { return p.submitExample(ctx, "", "") },
		func(context.Context) error { return p.stored() },
		func(ctx context.Context) error { return p.storeSecret(ctx, p.secret) },
		p.verify,
	}
	for _, s := range steps {
		if err := s(ctx); err != nil {
			return err
		}
	}
	if !p.report["verified"] {
		return verdict.Skipf("the platform did not verify the kit's endpoint (%s): ranked checks need a certified agent", string(p.Last.Body))
	}
	return nil
}
