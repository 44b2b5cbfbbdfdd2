package pyyol

import (
	"slices"
)

// stylePauper buys every property it can afford on a poor table and, in
// debt, mortgages what it holds before going bankrupt: it raises debts
// it pays off by mortgaging (a rent debt paid in resolve_debt,
// PYYOL-MONO-EV-RENT-PAID).
const stylePauper = "pauper"

// pauperPolicy: see stylePauper.
func (m *monoRun) pauperPolicy(v monoView) map[string]any {
	has := func(a string) bool { return slices.Contains(v.LegalActions, a) }
	switch {
	case has("buy"):
		return act("buy")
	case v.Phase == "resolve_debt" && has("mortgage"):
		if sq := m.mortgageable(m.mine(v)); sq >= 0 {
			return onSquare("mortgage", sq)
		}
	}
	for _, a := range []string{"bankrupt", "decline", "pass", "reject_trade", "skip_trade", "roll_jail", "roll", "end_turn"} {
		if has(a) {
			return act(a)
		}
	}
	return m.safe(v)
}

// paidOffDebt reports whether the agent mortgaged in resolve_debt on a
// debt owed to one seat and later played on outside resolve_debt: a debt
// raised and paid off (PYYOL-MONO-PHASE-RESOLVE-DEBT).
func (m *monoRun) paidOffDebt() bool {
	for i, t := range m.turns {
		a, _ := t.move["action"].(string)
		s := t.view.State
		if a != "mortgage" || t.view.Phase != "resolve_debt" || s == nil || s.Debt == nil || len(s.Debt.Creditors) != 1 {
			continue
		}
		if slices.ContainsFunc(m.turns[i+1:], func(u *monoTurn) bool { return u.view.Phase != "resolve_debt" }) {
			return true
		}
	}
	return false
}
