package pyyol

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// The fallback judges: on each planned round the kit answered late,
// illegally, with an error, not at all, with a redirect, with an endless
// body or never; the match must go on and the round show the lowest legal
// card (PYYOL-GOOF-FALLBACK-LOWEST), never the card the bad answer named.

// planRound is the round whose turn the kit answers by plan.
func planRound(plan string) int {
	for r, p := range turnPlan {
		if p == plan {
			return r
		}
	}
	return -1
}

// played is the card the kit's seat played in round, as a later view's
// history or the final result tells it (false when neither does).
func (s *platSession) played(round, seat int) (int, bool) {
	for _, r := range s.routeRequests("/turn") {
		for _, h := range readTurnView(r.body).history {
			if h.round == round {
				return h.card, true
			}
		}
	}
	for _, r := range s.routeRequests("/game-end") {
		for _, h := range resultRounds(r.body, seat) {
			if h.round == round {
				return h.card, true
			}
		}
	}
	return 0, false
}

// judgeFallback judges the round answered by plan.
func (s *platSession) judgeFallback(plan string) error {
	round, rule := planRound(plan), planRule[plan]
	s.ep.mu.Lock()
	v, ok := s.ep.views[round]
	s.ep.mu.Unlock()
	if !ok {
		return verdict.Skipf("unchecked: the match had no round %d, the one the kit answers %s", round, plan)
	}
	if err := s.judgePlanExtra(plan, round); err != nil {
		return err
	}
	if !s.wentOn(round) {
		return verdict.Failf(rule, "the match going on to the next round", "no turn after round "+fmt.Sprint(round),
			"the match after the kit's %s answer", plan)
	}
	card, ok := s.played(round, v.seat)
	if !ok {
		return verdict.Skipf("unchecked: neither a later view nor the result says which card round %d took", round)
	}
	bad := v.highest()
	if plan == turnIllegal {
		bad = 99
	}
	switch card {
	case v.lowest():
		return nil
	case bad:
		return verdict.Failf(rule, fmt.Sprintf("the fallback, card %d", v.lowest()), fmt.Sprintf("card %d, the kit's %s answer", card, plan),
			"round %d", round)
	}
	return verdict.Failf("PYYOL-PLAT-FALLBACK", fmt.Sprintf("the lowest legal card, %d", v.lowest()), card, "the fallback of round %d", round)
}

// wentOn reports whether a turn of a later round came.
func (s *platSession) wentOn(round int) bool {
	for _, r := range s.routeRequests("/turn") {
		if r.round > round {
			return true
		}
	}
	return len(s.routeRequests("/game-end")) > 0
}

// judgePlanExtra judges what the card alone cannot tell: the redirect
// target never asked, the endless body not read on, the hung turn given up.
func (s *platSession) judgePlanExtra(plan string, round int) error {
	switch plan {
	case turnRedirect:
		for _, r := range s.ep.requests() {
			if strings.HasPrefix(r.path, redirectedDir) {
				return verdict.Failf("PYYOL-PLAT-NO-REDIRECT", "the 307 not followed", r.describe(), "the kit's redirect in round %d", round)
			}
		}
	case turnEndless:
		for _, r := range s.routeRequests("/turn") {
			if r.round == round && r.written > endlessCap {
				return verdict.Failf("PYYOL-PLAT-BOUNDED-BODY", "the answer cut at a bound", fmt.Sprintf("more than %d MiB read", endlessCap>>20),
					"the kit's endless answer in round %d", round)
			}
		}
	case turnHung:
		return s.judgeHung(round)
	}
	return nil
}

// judgeHung: the hung turn cost one attempt, not the kit's whole hold.
func (s *platSession) judgeHung(round int) error {
	var first, next time.Time
	for _, r := range s.routeRequests("/turn") {
		switch {
		case r.round == round && first.IsZero():
			first = r.at
		case r.round > round && next.IsZero():
			next = r.at
		}
	}
	if !first.IsZero() && !next.IsZero() && next.Sub(first) >= hungFor {
		return verdict.Failf("PYYOL-PLAT-ATTEMPT-TIMEOUT", "the turn given up after an attempt timeout",
			fmt.Sprintf("the next turn %v later, after the kit's whole hold", next.Sub(first).Round(time.Second)), "round %d", round)
	}
	return nil
}
