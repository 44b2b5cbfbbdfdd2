package goofspiel

import "slices"

// View is a seat's turn view (games.md "Turn view"): only what the seat
// may know, self-contained.
type View struct {
	Seat         int         `json:"seat"`
	Round        int         `json:"round"`
	CurrentPrize int         `json:"current_prize"`
	PrizePool    int         `json:"prize_pool"`
	YourHand     []int       `json:"your_hand"`
	LegalActions []int       `json:"legal_actions"`
	Scores       [2]int      `json:"scores"`
	History      []SeatRound `json:"history"`
}

// SeatRound is one resolved round as a seat sees it: its own card and the
// opponent's, with winner and scores by absolute seat.
type SeatRound struct {
	Round     int    `json:"round"`
	Prize     int    `json:"prize"`
	PrizePool int    `json:"prize_pool"`
	YourCard  int    `json:"your_card"`
	OppCard   int    `json:"opp_card"`
	Winner    int    `json:"winner"`
	Scores    [2]int `json:"scores"`
}

// View returns seat's view of the current round.
func (m *Match) View(seat int) View {
	// PYYOL-GOOF-VIEW: seat, 0-based round, current_prize, prize_pool,
	// your_hand, legal_actions, scores and history.
	hand := m.Hand(seat)
	v := View{Seat: seat, Round: m.round, YourHand: hand,
		// PYYOL-GOOF-LEGAL-ACTIONS: "always equal to your_hand".
		LegalActions: slices.Clone(hand),
		// PYYOL-GOOF-SCORES-ABSOLUTE: scores[0] is seat 0, whoever asks.
		Scores:  m.scores,
		History: SeatHistory(m.history, seat)}
	if !m.Done() {
		v.CurrentPrize, v.PrizePool = m.order[m.round], m.Pool()
	}
	return v
}

// SeatHistory renders resolved rounds for one seat (PYYOL-GOOF-HISTORY,
// PYYOL-WS-CONTEXT: the full round history in every view).
func SeatHistory(rounds []Round, seat int) []SeatRound {
	out := make([]SeatRound, 0, len(rounds))
	for _, r := range rounds {
		out = append(out, SeatRound{Round: r.Round, Prize: r.Prize, PrizePool: r.PrizePool,
			YourCard: r.Cards[seat], OppCard: r.Cards[1-seat], Winner: r.Winner, Scores: r.Scores})
	}
	return out
}

// Baseline is the kit's baseline opponent (PYYOL-REF-BASELINE): the card
// equal to the prize if still in hand, else the lowest card.
func Baseline(v View) Move {
	if slices.Contains(v.LegalActions, v.CurrentPrize) {
		return Move{Round: v.Round, Card: v.CurrentPrize}
	}
	return Move{Round: v.Round, Card: slices.Min(v.LegalActions)}
}
