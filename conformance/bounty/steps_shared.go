package bounty

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// sharedSteps registers the steps several feature files use.
func (w *world) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the live challenge$`), w.liveChallenge)
	sc.Step(pattern(`^a team of (\d+) agents in a fresh round$`), w.freshRound)
	sc.Step(pattern(`^(agent \d+ solves share \d+(?:, agent \d+ solves share \d+)*)$`), w.solveList)
	sc.Step(pattern(`^the answer is (\d+) with code "([^"]*)"$`), w.answerIs)
	sc.Step(pattern(`^the answer is a 4xx refusal$`), w.answer4xx)
	sc.Step(pattern(`^(\d+) seconds pass$`), w.secondsPass)
	sc.Step(pattern(`^the team combines "([^"]*)"$`), func(ctx context.Context, pairs string) error { return w.combine(ctx, pairs, 0) })
	sc.Step(pattern(`^the combine wins$`), w.combineWon)
	sc.Step(pattern(`^the payout splits (\d+) across agents (.+) only$`), w.payoutSplits)
	sc.Step(pattern(`^the team lists$`), w.listTeam)
	sc.Step(pattern(`^the team lists with agent (\d+) working on share (\d+)$`), w.listTeamClaiming)
	sc.Step(pattern(`^the board shows agent (\d+) holding "([^"]*)" and agent (\d+) holding "([^"]*)"$`), w.boardHoldingTwo)
	sc.Step(pattern(`^a registered agent listed on the board$`), w.listedSolo)
}

// solveList solves "agent 1 solves share 2, agent 2 solves share 3".
func (w *world) solveList(ctx context.Context, text string) error {
	for _, item := range strings.Split(text, ",") {
		var i, s int
		if _, err := fmt.Sscanf(strings.TrimSpace(item), "agent %d solves share %d", &i, &s); err != nil {
			return verdict.Errorf("cannot read %q", item)
		}
		if err := w.solveShare(ctx, i, s); err != nil {
			return err
		}
	}
	return nil
}

// answerIs checks the last answer's status and code under the scenario's
// rule: a MUST rule fails on a mismatch, a REFERENCE rule warns.
func (w *world) answerIs(status int, code string) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	var r refusal
	_ = w.Last.Decode(w.rule, &r)
	if w.Last.Status != status || r.Code != code {
		return verdict.Failf(w.rule, fmt.Sprintf("%d %s", status, code), fmt.Sprintf("%d %s", w.Last.Status, r.Code), "%s", w.clip(w.Last.Body))
	}
	return nil
}

func (w *world) answer4xx() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule, "a 4xx refusal", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// secondsPass moves the embedded reference's clock; live targets skip.
// clockPasses moves the embedded reference's clock by n seconds and
// never waits: the board property's steps (a live run skips them).
func (w *world) clockPasses(n int) error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock")
	}
	w.env.Clock.Advance(secondsDuration(n))
	return nil
}

// secondsPass lets n seconds of a documented window pass (suite.Env.WaitOut:
// the embedded clock moves, a live run waits only under --long).
func (w *world) secondsPass(ctx context.Context, n int) error {
	return w.env.WaitOut(ctx, secondsDuration(n))
}

func (w *world) combineWon() error {
	if w.won == nil {
		return verdict.Failf("BOUNTY-PAYOUT", "200: a coalition of k credited solvers wins", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// payoutSplits: the amount goes to the named members and nobody else
// (BOUNTY-PAYOUT).
func (w *world) payoutSplits(amount int, who string) error {
	want := map[string]bool{}
	for _, f := range strings.FieldsFunc(who, func(r rune) bool { return r == ',' || r == ' ' }) {
		if i, err := strconv.Atoi(f); err == nil {
			a, err := w.member(i)
			if err != nil {
				return err
			}
			want[a.ID] = true
		}
	}
	got := w.payouts()
	total := 0
	for id, v := range got {
		if !want[id] {
			return verdict.Failf("BOUNTY-PAYOUT", "payouts to the credited agents only", got, "%s was paid", id)
		}
		total += v
	}
	if total != amount || len(got) != len(want) {
		return verdict.Failf("BOUNTY-PAYOUT", fmt.Sprintf("%d across %d agents", amount, len(want)), got, "")
	}
	return nil
}

// listTeam lists (or refreshes) every member with its contact.
func (w *world) listTeam(ctx context.Context) error {
	for _, a := range w.team {
		if err := w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contactOf(a)}); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) listTeamClaiming(ctx context.Context, i, share int) error {
	for n, a := range w.team {
		body := map[string]any{"agent_id": a.ID, "contact": contactOf(a)}
		if n+1 == i {
			body["working_on"] = share
		}
		if err := w.mustPost(ctx, body); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) boardHoldingTwo(ctx context.Context, i int, a string, j int, b string) error {
	if err := w.boardHolding(ctx, i, a); err != nil {
		return err
	}
	return w.boardHolding(ctx, j, b)
}

// listedSolo registers one agent in a fresh round and lists it.
func (w *world) listedSolo(ctx context.Context) error {
	if err := w.freshRound(ctx, 1); err != nil {
		return err
	}
	return w.listTeam(ctx)
}

// liveChallenge reads the active round and its manifest.
func (w *world) liveChallenge(ctx context.Context) error {
	cid, round, err := w.live(ctx)
	if err != nil {
		return err
	}
	w.cid, w.round = cid, round
	w.held, w.shareHex = map[string][]int{}, map[int]string{}
	resp, err := w.call(ctx, "GET", "/challenge/"+cid+"/manifest", nil)
	if err != nil {
		return err
	}
	if resp.Status == 410 {
		return verdict.Failf("BOUNTY-REGISTRY", "the active challenge is open", "410 on its manifest", "%s", cid)
	}
	w.man, err = w.manifest(ctx, cid)
	return err
}

// freshRound wins the live round with the run's rotators so the scenario
// starts on a round with no shares, delists every agent the runner listed
// before, and registers a team of n.
func (w *world) freshRound(ctx context.Context, n int) error {
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	st, err := w.state()
	if err != nil {
		return err
	}
	if err := w.rotate(ctx, st); err != nil {
		return err
	}
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	if err := w.delistAll(ctx, st); err != nil {
		return err
	}
	w.team = nil
	for i := 0; i < n; i++ {
		if err := w.addMember(ctx); err != nil {
			return err
		}
	}
	return nil
}
