package monopoly

// bankCash is a one-sided bank transaction (cash_changed): delta is what
// the seat receives, negative when it pays, and balance its cash after,
// the real platform's names (PYYOL-MONO-EV-CASH-CHANGED,
// docs/pyyol-monopoly-layout.md).
func (g *Game) bankCash(seat, amount int, reason string) {
	g.players[seat].Cash += amount
	g.emit(EvCashChanged, map[string]any{"seat": seat, "delta": amount, "balance": g.players[seat].Cash, "reason": reason})
}

// poolCash moves money between a seat and the free-parking pool
// (PYYOL-MONO-CFG-FREE-PARKING): delta is what the seat receives; pool,
// the pool after, is the kit's addition to the platform's payload.
func (g *Game) poolCash(seat, amount int, reason string) {
	g.players[seat].Cash += amount
	g.pool -= g.poolPaidOut(amount, reason)
	g.emit(EvCashChanged, map[string]any{"seat": seat, "delta": amount, "balance": g.players[seat].Cash,
		"reason": reason, "pool": g.pool})
}

// toBank is a payment to the bank, or to the pool when the free-parking
// option routes taxes and fines there.
func (g *Game) toBank(seat, amount int, reason string) {
	if g.rules.FreeParkingPool && reason != "unmortgage" && (g.defect != PoolTaxesOnly || reason == "tax") {
		g.poolCash(seat, -amount, reason)
		return
	}
	g.bankCash(seat, -amount, reason)
}

// transfer moves cash from one seat to another (rent_paid; cards that pay
// players use it too, PYYOL-MONO-EV-RENT-PAID). As on the real platform,
// property is the square a rent is for and -1 for a card's payment.
func (g *Game) transfer(from, to, amount int, reason string) {
	g.players[from].Cash -= amount
	g.players[to].Cash += amount
	sq := -1
	if reason == "rent" {
		sq = g.players[from].Position
	}
	g.emit(EvRentPaid, map[string]any{"from": from, "to": to, "property": sq, "amount": amount})
}

// charge makes seat pay amount to its creditors (each of several creditors
// gets an equal share; none means the bank). It pays at once and reports
// true when the seat's cash covers it, otherwise it records a debt and
// the seat resolves it (PYYOL-MONO-PHASE-RESOLVE-DEBT).
func (g *Game) charge(seat int, creditors []int, amount int, reason string, thenMove bool) bool {
	if amount <= 0 {
		return true
	}
	if g.players[seat].Cash >= amount || g.defect == DebtGoesNegative {
		g.pay(seat, creditors, amount, reason)
		return true
	}
	g.debts = append(g.debts, Debt{Seat: seat, Creditors: creditors, Amount: amount, Reason: reason, thenMove: thenMove})
	return false
}

func (g *Game) pay(seat int, creditors []int, amount int, reason string) {
	if len(creditors) == 0 {
		g.toBank(seat, amount, reason)
		return
	}
	each := amount / len(creditors)
	for _, c := range creditors {
		g.transfer(seat, c, each, reason)
	}
}

// settle moves to resolve_debt while a debt is open, remembering the phase
// to come back to.
func (g *Game) settle() {
	if len(g.debts) > 0 && g.phase != PhaseResolveDebt && g.phase != PhaseGameOver {
		g.debtRet = g.phase
		g.phase = PhaseResolveDebt
	}
}

// payDebtIfCovered pays the first debt once the debtor's cash covers it
// (PYYOL-MONO-REF-DEBT) and resumes the game when no debt is left.
func (g *Game) payDebtIfCovered() {
	d := g.debts[0]
	if g.players[d.Seat].Cash < d.Amount {
		return
	}
	g.pay(d.Seat, g.debtCreditors(d), d.Amount, d.Reason)
	g.debts = g.debts[1:]
	if d.thenMove {
		g.leaveJail(d.Seat, "forced")
		g.advance(d.Seat, g.dice[0]+g.dice[1])
		g.settle()
		return
	}
	g.resume()
}

// resume leaves resolve_debt when no debt is left.
func (g *Game) resume() {
	if len(g.debts) > 0 {
		return
	}
	if g.players[g.current].Bankrupt {
		g.emit(EvTurnEnded, map[string]any{"seat": g.current})
		g.startTurn(g.nextSolvent(g.current))
		return
	}
	g.phase = g.debtRet
}

// goBankrupt is the bankrupt action: the seat's buildings go back to the
// bank at half price, then its cash, holdings and jail cards go to its one
// creditor, or to the bank when it owes the bank or several seats (where
// holdings return unowned and unmortgaged) (PYYOL-MONO-ACT-BANKRUPT,
// PYYOL-MONO-REF-BANKRUPTCY).
func (g *Game) goBankrupt(seat int) {
	d := g.debts[0]
	creditor := -1
	if len(d.Creditors) == 1 && g.defect != BankruptToBank {
		creditor = d.Creditors[0]
	}
	p := &g.players[seat]
	var props []int
	for sq := 0; sq < 40; sq++ {
		h, ok := g.holdings[sq]
		if !ok || h.Owner != seat {
			continue
		}
		props = append(props, sq)
		if h.Houses > 0 {
			g.returnBuildings(h)
		}
	}
	cash := p.Cash
	for _, sq := range props {
		h := g.holdings[sq]
		if creditor >= 0 && !g.defectiveLiquidation() {
			h.Owner = creditor
			continue
		}
		if !g.bankTakesBack() {
			continue
		}
		h.Owner, h.Mortgaged = -1, false
	}
	if creditor >= 0 {
		if cash > 0 && !g.estateCashLost() {
			g.bankCash(creditor, cash, "bankruptcy_estate")
		}
		g.players[creditor].JailCards += p.JailCards
		g.held[creditor] = append(g.held[creditor], g.held[seat]...)
	} else {
		for _, c := range g.held[seat] {
			g.returnCard(c)
		}
	}
	delete(g.held, seat)
	p.Cash, p.JailCards, p.Bankrupt, p.InJail = 0, 0, true, false
	// The real platform's payload: seat, creditor and the debt that could
	// not be paid (docs/pyyol-monopoly-layout.md).
	g.emit(EvBankrupt, map[string]any{"seat": seat, "creditor": creditor, "amount": d.Amount, "property": g.debtSquare(d, seat),
		"reason": d.Reason})
	g.dropDebts(seat)
	if len(g.solvent()) <= 1 {
		g.finish("bankruptcy")
		return
	}
	g.resume()
}

// returnBuildings gives a bankrupt seat's buildings back to the supply;
// their half-price value stays with the debtor's estate.
func (g *Game) returnBuildings(h *Holding) {
	half := g.board.Squares[h.Square].HouseCost / 2
	// As on the real platform: a liquidation's cash_changed, no house_sold.
	g.bankCash(h.Owner, h.Houses*half, "liquidate")
	if h.Houses == 5 {
		g.hotels++
	} else {
		g.houses += h.Houses
	}
	h.Houses = 0
}

// dropDebts removes a bankrupt seat's debts and its share of others'.
func (g *Game) dropDebts(seat int) {
	var keep []Debt
	for _, d := range g.debts {
		if d.Seat == seat {
			continue
		}
		keep = append(keep, d)
	}
	g.debts = keep
}

// draw takes the top card of a deck, puts it under the deck (a jail card
// stays with its holder until used) and applies it (card_drawn;
// PYYOL-MONO-REF-DECKS).
func (g *Game) draw(seat int, deck *[]int, cards []Card, name string) {
	if len(*deck) == 0 {
		return
	}
	i := (*deck)[0]
	*deck = (*deck)[1:]
	c := cards[i]
	if c.Kind != "jail_card" {
		*deck = append(*deck, i)
	}
	// The real platform's payload: seat, deck, card_id and text
	// (docs/pyyol-monopoly-layout.md).
	g.emit(EvCardDrawn, map[string]any{"seat": seat, "deck": name, "card_id": i, "text": c.Text})
	g.applyCard(seat, c, name, i)
}

// debtSquare is the square a debt is the rent of, -1 for any other debt.
func (g *Game) debtSquare(d Debt, seat int) int {
	if d.Reason == "rent" {
		return g.players[seat].Position
	}
	return -1
}
