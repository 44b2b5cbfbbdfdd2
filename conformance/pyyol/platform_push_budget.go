package pyyol

import (
	"fmt"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// inBudgetAt is how far into runtime.timeout the kit answers the in-budget
// turn: late enough that a platform with a shorter timeout of its own has
// given up, early enough that transit cannot carry the answer past the
// budget.
const inBudgetAt = 0.6

// judgeInBudget: runtime.timeout, not a shorter timeout of the platform's
// own, bounds the wait for /turn (PYYOL-PLAT-TURN-TIMEOUT: "bounded by
// `runtime.timeout` (ms, from your manifest)"). A platform that drops the
// request before half the budget has passed at the kit's end gave up
// inside it, whatever the transit; an answer the platform kept the request
// open for but did not take cannot be told from a slow network, and stays
// unchecked.
func (s *platSession) judgeInBudget() error {
	round := planRound(turnInBudget)
	s.ep.mu.Lock()
	v, ok := s.ep.views[round]
	s.ep.mu.Unlock()
	if !ok {
		return verdict.Skipf("unchecked: the match had no round %d, the one the kit answers inside runtime.timeout", round)
	}
	budget := s.ep.budget
	if cut := s.cutAfter(round); cut > 0 {
		if cut < budget/2 {
			return verdict.Failf("PYYOL-PLAT-TURN-TIMEOUT", fmt.Sprintf("the platform waiting up to runtime.timeout (%v) for the answer", budget),
				fmt.Sprintf("the request dropped %v after it arrived", cut.Round(time.Millisecond)), "round %d, answered %v in", round,
				time.Duration(float64(budget)*inBudgetAt))
		}
		return verdict.Skipf("unchecked: the platform dropped round %d's request %v after it arrived, too near runtime.timeout (%v) to tell from transit",
			round, cut.Round(time.Millisecond), budget)
	}
	if !s.wentOn(round) {
		return verdict.Failf("PYYOL-PLAT-TURN-TIMEOUT", "the match going on to the next round", "no turn after round "+fmt.Sprint(round),
			"the match after the kit's answer inside runtime.timeout")
	}
	card, ok := s.played(round, v.seat)
	switch {
	case !ok:
		return verdict.Skipf("unchecked: neither a later view nor the result says which card round %d took", round)
	case card == v.highest():
		return nil
	case card == v.lowest():
		return verdict.Skipf("unchecked: round %d took the fallback though the kit answered %v into runtime.timeout (%v) and the platform kept the request open: a shorter timeout cannot be told from transit",
			round, time.Duration(float64(budget)*inBudgetAt), budget)
	}
	return verdict.Failf("PYYOL-PLAT-FALLBACK", fmt.Sprintf("the kit's card %d or the fallback %d", v.highest(), v.lowest()), card, "round %d", round)
}

// cutAfter is how long after it arrived the platform dropped the first
// turn of round (0: it did not).
func (s *platSession) cutAfter(round int) time.Duration {
	s.ep.mu.Lock()
	defer s.ep.mu.Unlock()
	for _, r := range s.ep.log {
		if r.path == platformDir+"/turn" && r.round == round {
			return r.cutAfter
		}
	}
	return 0
}
