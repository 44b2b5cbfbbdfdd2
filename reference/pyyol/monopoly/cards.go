package monopoly

// heldCard is a get-out-of-jail-free card a seat holds, and the deck it
// goes back under once used.
type heldCard struct {
	deck  string
	index int
}

// applyCard carries out a drawn card (PYYOL-MONO-EV-CARD-DRAWN,
// PYYOL-MONO-REF-DECKS).
func (g *Game) applyCard(seat int, c Card, deck string, index int) {
	p := &g.players[seat]
	switch c.Kind {
	case "advance":
		g.moveTo(seat, c.To, g.cardSalary())
		g.land(seat, c.To, rentNormal)
	case "nearest_railroad":
		to := g.nearest(p.Position, KindRailroad)
		g.moveTo(seat, to, g.cardSalary())
		g.land(seat, to, rentDoubleRailroad)
	case "nearest_utility":
		to := g.nearest(p.Position, KindUtility)
		g.moveTo(seat, to, g.cardSalary())
		g.land(seat, to, rentUtilityTen)
	case "back":
		to := (p.Position + 40 - c.Amount) % 40
		g.moveTo(seat, to, false)
		g.land(seat, to, rentNormal)
	case "go_to_jail":
		g.goToJail(seat, "card")
	case "jail_card":
		p.JailCards++
		g.held[seat] = append(g.held[seat], heldCard{deck: deck, index: index})
	case "cash":
		if c.Amount >= 0 {
			g.bankCash(seat, c.Amount, "card")
		} else {
			g.charge(seat, nil, -c.Amount, "card", false)
		}
	case "repairs":
		cost := 0
		for _, h := range g.holdings {
			if h.Owner == seat {
				cost += g.repairCost(c, h.Houses)
			}
		}
		if g.repairsFlat() {
			cost = c.House
		}
		g.charge(seat, nil, cost, "card", false)
	case "pay_each":
		var others []int
		for _, s := range g.solvent() {
			if s != seat {
				others = append(others, s)
			}
		}
		g.charge(seat, g.eachPaid(others), c.Amount*len(others), "card", false)
	case "collect_each":
		i := 0
		for _, s := range g.solvent() {
			if s != seat {
				if g.collectsFrom(i) {
					g.charge(s, []int{seat}, c.Amount, "card", false)
				}
				i++
			}
		}
	}
}

// nearest is the first square of a kind ahead of pos.
func (g *Game) nearest(pos int, kind string) int {
	for i := 1; i <= 40; i++ {
		if sq := (pos + i) % 40; g.board.Squares[sq].Kind == kind {
			return sq
		}
	}
	return pos
}

// useJailCard spends a seat's jail card and puts it back under its deck.
func (g *Game) useJailCard(seat int) {
	if g.defect == JailCardKept {
		return
	}
	g.players[seat].JailCards--
	cards := g.held[seat]
	if len(cards) == 0 {
		return
	}
	c := cards[len(cards)-1]
	g.held[seat] = cards[:len(cards)-1]
	g.returnCard(c)
}

func (g *Game) returnCard(c heldCard) {
	if c.deck == "chance" {
		g.chance = append(g.chance, c.index)
	} else {
		g.chest = append(g.chest, c.index)
	}
}
