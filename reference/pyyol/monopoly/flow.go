package monopoly

// startTurn opens seat's turn on the trade floor, or ends the game at the
// turn cap (PYYOL-MONO-WIN-TURN-CAP, PYYOL-MONO-REF-TURN-CAP).
func (g *Game) startTurn(seat int) {
	if g.turn >= g.rules.TurnCap && g.defect != NoTurnCap {
		g.finish("turn_cap")
		return
	}
	g.turn++
	g.current, g.doubles, g.actions, g.proposed = seat, 0, 0, false
	// The real platform's payload: seat and turn_count
	// (docs/pyyol-monopoly-layout.md).
	g.emit(EvTurnStarted, map[string]any{"seat": seat, "turn_count": g.turn})
	// PYYOL-MONO-PHASE-TRADE, PYYOL-MONO-REF-TRADE-FLOOR: the open trade
	// floor comes first at the top of every turn.
	g.phase = PhaseTrade
}

// afterFloor is the phase that follows the trade floor: jail or roll
// (PYYOL-MONO-PHASE-JAIL, PYYOL-MONO-PHASE-ROLL).
func (g *Game) afterFloor() string {
	if g.players[g.current].InJail {
		return PhaseJail
	}
	return PhaseRoll
}

// rollDice rolls two dice and records them (dice_rolled).
func (g *Game) rollDice(seat int) bool {
	g.dice = [2]int{g.rng.IntN(6) + 1, g.rng.IntN(6) + 1}
	double := g.dice[0] == g.dice[1]
	// die1, die2, total and doubles, as the real platform sends them
	// (docs/pyyol-monopoly-layout.md).
	g.emit(EvDiceRolled, map[string]any{"seat": seat, "die1": g.dice[0], "die2": g.dice[1],
		"total": g.dice[0] + g.dice[1], "doubles": double})
	return double
}

// roll is the roll action: three doubles in a row send the token to jail
// (PYYOL-MONO-REF-DOUBLES), otherwise it moves and lands.
func (g *Game) roll(seat int) {
	if g.rollDice(seat) {
		g.doubles++
		if g.doubles == 3 {
			g.goToJail(seat, "three_doubles")
			return
		}
	} else {
		g.doubles = 0
	}
	g.advance(seat, g.dice[0]+g.dice[1])
}

// advance moves a token forward, paying go_salary on passing or landing
// on GO (PYYOL-MONO-ECONOMY), and lands it.
func (g *Game) advance(seat, steps int) {
	p := &g.players[seat]
	to := (p.Position + steps) % 40
	g.moveTo(seat, to, true)
	g.land(seat, to, rentNormal)
}

// moveTo moves a token to a square, forward, collecting the salary when
// it wraps past GO and collect is set.
func (g *Game) moveTo(seat, to int, collect bool) {
	p := &g.players[seat]
	from := p.Position
	p.Position = to
	if g.defect == NoSalaryOnPass {
		collect = collect && to == 0
	}
	passed := collect && to < from || collect && to == 0 && from != 0
	// passed_go as the real platform sends it (docs/pyyol-monopoly-layout.md).
	g.emit(EvMoved, map[string]any{"seat": seat, "from": from, "to": to, "passed_go": passed})
	if passed {
		g.bankCash(seat, g.rules.GoSalary, "go_salary")
		if g.defect == SalaryTwice || g.goLandingBonus(to) {
			g.bankCash(seat, g.rules.GoSalary, "go_salary")
		}
	}
}

// The rent modes: a card may double railroad rent or set utility rent to
// ten times the dice.
const (
	rentNormal = iota
	rentDoubleRailroad
	rentUtilityTen
)

// land resolves the square a token landed on (PYYOL-MONO-PHASE-MACHINE:
// roll, resolve the landing, then manage; PYYOL-MONO-PHASE-MANAGE).
func (g *Game) land(seat, sq, mode int) {
	g.phase = PhaseManage
	s := g.board.Squares[sq]
	switch s.Kind {
	case KindStreet, KindRailroad, KindUtility:
		h := g.holdings[sq]
		if h.Owner < 0 {
			// PYYOL-MONO-PHASE-ACQUIRE: an unowned property is bought or declined.
			g.phase = PhaseAcquire
			return
		}
		if h.Owner == seat || h.Mortgaged && g.defect != RentWhenMortgaged || g.rentWaived(h.Owner) {
			// PYYOL-MONO-REF-RENT: a mortgaged property collects no rent.
			return
		}
		g.charge(seat, []int{h.Owner}, g.rent(sq, mode), "rent", false)
	case KindTax:
		g.charge(seat, nil, g.taxOf(sq), "tax", false)
	case KindChance:
		g.draw(seat, &g.chance, g.board.Chance, "chance")
	case KindChest:
		g.draw(seat, &g.chest, g.board.CommunityChest, "community_chest")
	case KindGoToJail:
		g.goToJail(seat, "go_to_jail_space")
	case KindFreePark:
		if g.rules.FreeParkingPool && g.pool > 0 && g.defect != PoolNeverPays {
			// PYYOL-MONO-CFG-FREE-PARKING: landing on Free Parking collects the pool.
			g.poolCash(seat, g.pool, "free_parking")
		}
	}
}

// rent (PYYOL-MONO-RENT) is what landing on an owned, unmortgaged square costs
// (PYYOL-MONO-REF-RENT): a street's base rent doubled when one owner
// holds its whole colour group unimproved, else the rent for its houses
// or hotel; railroads 25/50/100/200 by how many the owner holds;
// utilities 4x or 10x the dice.
func (g *Game) rent(sq, mode int) int {
	s := g.board.Squares[sq]
	owner := g.holdings[sq].Owner
	owned := 0
	for _, o := range g.board.Group(sq) {
		if g.holdings[o].Owner == owner {
			owned++
		}
	}
	dice := g.dice[0] + g.dice[1]
	switch s.Kind {
	case KindRailroad:
		if g.defect == RailroadFlat {
			owned = 1
		}
		r := g.railroadRent(owned)
		if mode == rentDoubleRailroad {
			r *= 2
		}
		return r
	case KindUtility:
		if g.defect == UtilityFee {
			return 25
		}
		if mode == rentUtilityTen {
			return 10 * dice
		}
		if g.defect == UtilityFlat {
			owned = 1
		}
		return g.utilityFactor(owned) * dice
	}
	if h := g.holdings[sq].Houses; h > 0 && g.defect != RentIgnoresHouses {
		return g.builtRent(s, h, owned == len(g.board.Group(sq)))
	}
	if owned == len(g.board.Group(sq)) && g.defect != RentNoSetDouble {
		return 2 * s.Rent[0]
	}
	return s.Rent[0]
}

// goToJail jails a seat without salary and ends its doubles run.
func (g *Game) goToJail(seat int, reason string) {
	p := &g.players[seat]
	from := p.Position
	p.Position, p.InJail, p.JailTurns = JailSquare, true, 0
	g.doubles = 0
	// The real platform's payload: seat and reason
	// (docs/pyyol-monopoly-layout.md).
	g.emit(EvWentToJail, map[string]any{"seat": seat, "reason": reason})
	g.jailSalary(seat, from)
	g.phase = PhaseManage
}

// leaveJail frees a seat (left_jail); method is the platform's word for
// the way out: paid, card, doubles or forced (the third failed roll's fine).
func (g *Game) leaveJail(seat int, method string) {
	p := &g.players[seat]
	p.InJail, p.JailTurns = false, 0
	g.emit(EvLeftJail, map[string]any{"seat": seat, "method": method})
}

// rollJail is roll_jail: doubles free the seat and move it (no re-roll);
// the third failure makes it pay the $50 fine and move
// (PYYOL-MONO-ACT-ROLL-JAIL, PYYOL-MONO-REF-JAIL).
func (g *Game) rollJail(seat int) {
	p := &g.players[seat]
	if g.rollDice(seat) || g.defect == JailAlwaysEscapes {
		g.leaveJail(seat, "doubles")
		g.advance(seat, g.dice[0]+g.dice[1])
		return
	}
	p.JailTurns++
	if p.JailTurns < 3 {
		g.phase = PhaseManage
		return
	}
	if g.defect == ThirdRollFree {
		g.leaveJail(seat, "forced")
		g.advance(seat, g.dice[0]+g.dice[1])
		return
	}
	if g.charge(seat, nil, g.jailFine(), "jail_fine", true) {
		g.leaveJail(seat, "forced")
		g.advance(seat, g.dice[0]+g.dice[1])
	}
}

// endTurn is end_turn: doubles re-roll, otherwise the next solvent seat's
// turn starts (PYYOL-MONO-ACT-END-TURN).
func (g *Game) endTurn(seat int) {
	p := g.players[seat]
	if g.doubles > 0 && !p.InJail && !p.Bankrupt && g.defect != DoublesNoReroll {
		g.phase = PhaseRoll
		g.actions = 0
		if g.defect == TurnCountPerRoll {
			g.turn++
		}
		if g.defect == RerollAsTurn {
			g.emit(EvTurnEnded, map[string]any{"seat": seat})
			g.emit(EvTurnStarted, map[string]any{"seat": seat, "turn_count": g.turn})
		}
		return
	}
	g.emit(EvTurnEnded, map[string]any{"seat": seat})
	if g.defect == TurnCountTwice {
		g.turn++
	}
	g.startTurn(g.nextSolvent(seat))
}

// nextSolvent is the next seat after seat that is not bankrupt.
func (g *Game) nextSolvent(seat int) int {
	for i := 1; i <= len(g.players); i++ {
		if s := (seat + i) % len(g.players); !g.players[s].Bankrupt {
			return s
		}
	}
	return seat
}

// solvent lists the seats still in the game.
func (g *Game) solvent() []int {
	var out []int
	for s, p := range g.players {
		if !p.Bankrupt {
			out = append(out, s)
		}
	}
	return out
}

// NetWorth is cash, list price of unmortgaged and half of mortgaged
// holdings, and the build cost of every house and hotel
// (PYYOL-MONO-REF-TURN-CAP).
func (g *Game) NetWorth(seat int) int {
	w := g.players[seat].Cash
	for sq, h := range g.holdings {
		if h.Owner != seat {
			continue
		}
		w += g.board.Squares[sq].Price + h.Houses*g.board.Squares[sq].HouseCost
		if h.Mortgaged {
			w -= g.board.MortgageValue(sq)
		}
	}
	return w
}

// finish ends the game: the last solvent seat wins, or at the turn cap
// the highest net worth, ties shared (PYYOL-MONO-WIN-LAST-SOLVENT,
// PYYOL-MONO-WIN-TURN-CAP, PYYOL-MONO-PHASE-GAME-OVER).
func (g *Game) finish(reason string) {
	worth := map[int]int{}
	best := -1 << 62
	for _, s := range g.solvent() {
		worth[s] = g.capWorth(s, reason)
		best = max(best, worth[s])
	}
	g.winners = nil
	for _, s := range g.solvent() {
		if worth[s] == best {
			g.winners = append(g.winners, s)
		}
	}
	g.phase = PhaseGameOver
	g.auction, g.trade, g.debts = nil, nil, nil
	g.emit(EvMatchFinished, g.finishedPayload())
}

// finishedPayload is match_finished's payload: winner (the one seat, or
// -1 for a shared win) and every seat's net_worths, as the real platform
// sends them (docs/pyyol-monopoly-layout.md); game_end's result names
// every seat that shares a win.
func (g *Game) finishedPayload() map[string]any {
	winner := -1
	if len(g.winners) == 1 {
		winner = g.winners[0]
	}
	worths := make([]int, len(g.players))
	for s := range g.players {
		worths[s] = g.NetWorth(s)
	}
	return map[string]any{"winner": winner, "net_worths": worths}
}
