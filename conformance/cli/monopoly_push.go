package cli

// `conformance simulate monopoly --target`: one refereed Monopoly match
// pushed to an agent's endpoint.

import (
	"context"
	"fmt"
	"io"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// simulateMonopolyPush plays the platform for a whole Monopoly match
// against a push endpoint: the agent at seat of players, engine bots at
// the others. A move outside the documented shape or legal_actions fails;
// a move only the kit's reference rules refuse is printed as a warning.
func simulateMonopolyPush(target, secret string, seed uint64, seat, players int, stdout, stderr io.Writer) int {
	if players < 2 || players > 8 || seat < 0 || seat >= players {
		fmt.Fprintln(stderr, "conformance simulate: --players is 2..8 and --seat 0..players-1")
		return ExitError
	}
	push, secrets, code := simulatedPlatform(target, secret, stderr)
	if push == nil {
		return code
	}
	warnings := 0
	note := func(err error) {
		warnings++
		fmt.Fprintln(stdout, "WARN:", secrets.Redact(err.Error()))
	}
	ref := &pyyol.MonopolyReferee{Referee: pyyol.Referee{Push: push, Seed: seed, Note: note}, Seat: seat, Players: players}
	winners, err := ref.Play(context.Background())
	for i, mv := range ref.Turns {
		fmt.Fprintf(stdout, "decision %3d  %s  agent %s%s\n", i, decisionPlace(ref.Decisions, i), describeMonopolyMove(mv.Action, mv.Property, mv.Amount), cashChange(ref.Decisions, i))
	}
	if err != nil {
		return simulationFailed(err, secrets, stderr)
	}
	for _, st := range ref.Standings {
		who := ""
		if st.Seat == seat {
			who = " (the agent)"
		}
		fmt.Fprintf(stdout, "seat %d%s: cash %d, net worth %d, %d properties%s\n", st.Seat, who, st.Cash, st.NetWorth, st.Properties,
			map[bool]string{true: ", bankrupt"}[st.Bankrupt])
	}
	fmt.Fprintf(stdout, "PASS — %d decisions of the documented shape, %d warning(s); winners %v (agent seat %d)\n", len(ref.Turns), warnings, winners, seat)
	return ExitPass
}

// describeMonopolyMove prints an action with its square or amount.
func describeMonopolyMove(action string, property, amount *int) string {
	switch {
	case property != nil:
		return fmt.Sprintf("%s %d", action, *property)
	case amount != nil:
		return fmt.Sprintf("%s +%d", action, *amount)
	}
	return action
}

// decisionPlace says where the agent stood for decision i: the turn, the
// phase, the dice and the square (with its price when it is for sale).
func decisionPlace(ds []pyyol.MonopolyDecision, i int) string {
	if i >= len(ds) {
		return ""
	}
	d := ds[i]
	dice, price := "         ", ""
	if d.Phase != monopoly.PhaseTrade && d.Phase != monopoly.PhaseRoll { // before its roll the dice are the last seat's
		dice = fmt.Sprintf("dice %d+%d", d.Dice[0], d.Dice[1])
	}
	if d.Price > 0 && d.Phase == monopoly.PhaseAcquire {
		price = fmt.Sprintf(" (price %d)", d.Price)
	}
	return fmt.Sprintf("turn %3d  %-8s %s  on %2d %s%s, cash %d ", d.Turn, d.Phase, dice, d.Square, d.SquareName, price, d.CashBefore)
}

// cashChange shows what decision i did to the agent's cash, if anything.
func cashChange(ds []pyyol.MonopolyDecision, i int) string {
	if i >= len(ds) || ds[i].CashAfter == ds[i].CashBefore {
		return ""
	}
	return fmt.Sprintf("  → cash %d", ds[i].CashAfter)
}
