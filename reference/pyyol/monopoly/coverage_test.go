package monopoly

import (
	"math/rand/v2"
	"testing"
)

// TestEveryEventPhaseAndActionOccurs plays seeded games until every
// documented event type, phase and action has shown up, so the property
// tests cover them all.
func TestEveryEventPhaseAndActionOccurs(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	reasons := map[string]int{}
	for seed := uint64(1); seed <= 150; seed++ {
		r := DefaultRules()
		r.FreeParkingPool = seed%2 == 0
		r.Players = 2 + int(seed%3)
		g, _ := New(r, seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		for !g.Over() {
			seat := g.Actor()
			seen["phase:"+g.phase] = true
			mv := g.Bot(seat)
			if rng.IntN(4) == 0 {
				mv = randomMove(g, seat, rng)
			}
			seen["action:"+mv.Action] = true
			if err := g.Apply(seat, mv); err != nil {
				t.Fatal(err)
			}
		}
		seen["phase:"+g.phase] = true
		for _, e := range g.EventsAfter(0) {
			seen["event:"+e.Type] = true
			if e.Type == EvMatchFinished {
				reasons[finishReason(g)]++
			}
		}
	}
	for _, e := range EventTypes {
		if !seen["event:"+e] {
			t.Errorf("event %s never occurred", e)
		}
	}
	for _, p := range []string{PhaseRoll, PhaseJail, PhaseAcquire, PhaseAuction, PhaseResolveDebt, PhaseManage,
		PhaseTradeResponse, PhaseTrade, PhaseGameOver} {
		if !seen["phase:"+p] {
			t.Errorf("phase %s never occurred", p)
		}
	}
	for _, a := range []string{ActRoll, ActBuy, ActDecline, ActBid, ActPass, ActBuild, ActSellHouse, ActMortgage,
		ActUnmortgage, ActPayJail, ActUseJailCard, ActRollJail, ActEndTurn, ActBankrupt, ActProposeTrade,
		ActAcceptTrade, ActRejectTrade, ActCounterTrade, ActSkipTrade} {
		if !seen["action:"+a] {
			t.Errorf("action %s never played", a)
		}
	}
	t.Logf("endings: %v", reasons)
	if reasons["bankruptcy"] == 0 {
		t.Error("no game ended by bankruptcy")
	}
}

// finishReason is why a finished game ended: one solvent seat left, else
// the turn cap.
func finishReason(g *Game) string {
	if len(g.solvent()) <= 1 {
		return "bankruptcy"
	}
	return "turn_cap"
}
