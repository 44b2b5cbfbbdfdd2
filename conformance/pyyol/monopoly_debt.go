package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// checkDebts: the agent is never asked to play on (outside
// resolve_debt) with negative cash, since a seat owing more than its cash
// raises funds or goes bankrupt first; and a resolve_debt view owes more
// than the agent's cash when it shows the debt
// (PYYOL-MONO-PHASE-RESOLVE-DEBT). Negative cash shown while resolving
// the debt is a reading the contract leaves open.
func (m *monoRun) checkDebts() error {
	for i, t := range m.turns {
		s := t.view.State
		if s == nil {
			continue
		}
		me := m.mine(t.view)
		if mine := s.Players; m.seat < len(mine) && mine[m.seat].Cash != nil && me.cash < 0 && t.view.Phase != "resolve_debt" {
			return verdict.Failf("PYYOL-MONO-PHASE-RESOLVE-DEBT", "the debt resolved before play goes on", fmt.Sprintf("cash %d in phase %s", me.cash, t.view.Phase), "turn view %d", i)
		}
		if t.view.Phase == "resolve_debt" && s.Debt != nil && s.Debt.Seat == m.seat && s.Debt.Amount <= me.cash {
			return verdict.Failf("PYYOL-MONO-PHASE-RESOLVE-DEBT", fmt.Sprintf("a debt above the cash %d", me.cash), s.Debt.Amount, "turn view %d in resolve_debt", i)
		}
	}
	return nil
}

// checkBankrupt: the agent's bankrupt goes to the creditor its debt
// named (one seat, or the bank) and hands over every property it held
// (PYYOL-MONO-ACT-BANKRUPT: give up, liquidate to the creditor). A debt
// to several seats is left open: the contract names one creditor.
func (m *monoRun) checkBankrupt() error {
	for i, t := range m.turns {
		if a, _ := t.move["action"].(string); a != "bankrupt" || !slices.Contains(t.view.LegalActions, a) || t.view.State == nil {
			continue
		}
		at := slices.IndexFunc(t.after, func(e frame) bool {
			s, _ := fieldInt(payload(e), "seat")
			return e.Type == "bankrupt" && s == m.seat
		})
		if at < 0 {
			continue // PYYOL-MONO-EV-BANKRUPT's to judge
		}
		p := payload(t.after[at])
		if d := t.view.State.Debt; d != nil && len(d.Creditors) <= 1 {
			want := -1
			if len(d.Creditors) == 1 {
				want = d.Creditors[0]
			}
			if got, ok := fieldInt(p, "creditor"); ok && got != want {
				return verdict.Failf("PYYOL-MONO-ACT-BANKRUPT", fmt.Sprintf("creditor %d (the debt's)", want), got, "the bankruptcy at turn view %d", i)
			}
		}
		if props, ok := p["properties"].([]any); ok {
			if want, got := m.heldBy(t.view), ints2(props); !slices.Equal(want, got) {
				return verdict.Failf("PYYOL-MONO-ACT-BANKRUPT", want, got, "the properties handed over at turn view %d", i)
			}
		}
	}
	return nil
}

// heldBy lists the squares the agent holds in a view, ascending.
func (m *monoRun) heldBy(v monoView) []int {
	out := []int{}
	for _, h := range m.mine(v).sorted() {
		if h.Owner == m.seat {
			out = append(out, h.Square)
		}
	}
	return out
}

// ints2 reads a JSON array of numbers, sorted.
func ints2(a []any) []int {
	out := []int{}
	for _, v := range a {
		if f, ok := v.(float64); ok {
			out = append(out, int(f))
		}
	}
	slices.Sort(out)
	return out
}

// checkPool: with free_parking_pool on, taxes and fines fund the pool and
// a token landing on Free Parking takes at least what they put in
// (PYYOL-MONO-CFG-FREE-PARKING). Other payments the pool may take are
// the target's reading; the check counts taxes and fines only.
func (m *monoRun) checkPool() error {
	if on, known := m.ruleBool("free_parking_pool"); !known || !on {
		return nil // the table did not announce the pool
	}
	b, err := monopoly.StandardBoard()
	if err != nil {
		return err
	}
	pool, lander := 0, -1
	for _, e := range m.events {
		p := payload(e)
		seat, _ := fieldInt(p, "seat")
		amount, _ := fieldInt(p, "amount")
		switch e.Type {
		case "cash_changed":
			if reason := p["reason"]; amount < 0 && (reason == "tax" || reason == "jail_fine") {
				pool -= amount
			}
			if seat == lander && amount >= pool && amount > 0 {
				pool, lander = 0, -1
			}
		case "moved":
			if to, _ := fieldInt(p, "to"); to >= 0 && to < len(b.Squares) && b.Squares[to].Kind == monopoly.KindFreePark && pool > 0 {
				lander = seat
			}
		case "dice_rolled", "turn_ended", "turn_started", "match_finished":
			if lander >= 0 {
				return verdict.Failf("PYYOL-MONO-CFG-FREE-PARKING", fmt.Sprintf("at least $%d from the pool", pool), "nothing",
					"seat %d landed on Free Parking, before event %d", lander, e.Seq)
			}
		}
	}
	return nil
}
