package goofspiel

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
)

// Move is a seat's bid: the round it answers and the card (games.md "Your
// move"). Usage is the optional self-reported LLM usage record.
type Move struct {
	Round int            `json:"round"`
	Card  int            `json:"card"`
	Usage map[string]any `json:"usage,omitempty"`
}

// Round is one resolved round, by absolute seat.
type Round struct {
	Round     int     `json:"round"`
	Prize     int     `json:"prize"`
	PrizePool int     `json:"prize_pool"`
	Cards     [2]int  `json:"cards"`
	Winner    int     `json:"winner"`
	Scores    [2]int  `json:"scores"`
	Fallback  [2]bool `json:"fallback"`
}

// Result is the final outcome; Reveal is the seed that proves the prize
// order against the commitment.
type Result struct {
	Winner     int     `json:"winner"`
	Scores     [2]int  `json:"scores"`
	History    []Round `json:"history"`
	Reveal     string  `json:"reveal"`
	PrizeOrder []int   `json:"prize_order"`
	Rules      Rules   `json:"rules"`
}

// ErrIllegal wraps every refused move.
var ErrIllegal = errors.New("illegal move")

// Match is one Goofspiel match in progress.
type Match struct {
	rules   Rules
	seed    []byte
	order   []int
	hands   [2][]int
	round   int
	carried int
	scores  [2]int
	history []Round
	bids    [2]*Move
	fell    [2]bool
	events  []Event
}

// New starts a match from a rule set and a seed (any bytes; 32 random
// bytes in practice). It emits match_created and the first prize_revealed.
func New(rules Rules, seed []byte) (*Match, error) {
	rules, err := rules.Normalize()
	if err != nil {
		return nil, err
	}
	m := &Match{rules: rules, seed: slices.Clone(seed), order: PrizeOrder(rules, seed)}
	for seat := range m.hands {
		// PYYOL-GOOF-HANDS: "Both players hold an identical hand (cards 1..13)".
		for c := 1; c <= rules.Cards; c++ {
			m.hands[seat] = append(m.hands[seat], c)
		}
	}
	// PYYOL-GOOF-COMMITMENT: match_created carries the rule set + commitment.
	m.emit(MatchCreated, map[string]any{"cards": rules.Cards, "rounds": rules.Rounds,
		"fairness_mode": rules.FairnessMode, "tie_rule": rules.TieRule, "commitment": Commitment(seed)})
	m.revealPrize()
	return m, nil
}

// Rules returns the match's rule set.
func (m *Match) Rules() Rules { return m.rules }

// Round returns the 0-based round being bid.
func (m *Match) Round() int { return m.round }

// Done reports whether every round is resolved.
func (m *Match) Done() bool { return m.round >= m.rules.Rounds }

// Pool is the points at stake this round: the prize plus anything carried
// from tied rounds.
func (m *Match) Pool() int { return m.order[m.round] + m.carried }

// Hand returns a copy of a seat's remaining cards, ascending.
func (m *Match) Hand(seat int) []int { return slices.Clone(m.hands[seat]) }

// Sealed reports whether seat has bid this round.
func (m *Match) Sealed(seat int) bool { return m.bids[seat] != nil }

// Check says why mv is illegal for seat now, or nil.
func (m *Match) Check(seat int, mv Move) error {
	switch {
	case m.Done():
		return fmt.Errorf("%w: the match is over", ErrIllegal)
	case seat != 0 && seat != 1:
		return fmt.Errorf("%w: no seat %d", ErrIllegal, seat)
	case m.bids[seat] != nil:
		// Bids are one-shot: "there is no re-bid".
		return fmt.Errorf("%w: seat %d already bid in round %d", ErrIllegal, seat, m.round)
	case mv.Round != m.round:
		// PYYOL-GOOF-MOVE: the round echo guards against a stale view.
		return fmt.Errorf("%w: round %d is not the current round %d", ErrIllegal, mv.Round, m.round)
	case !slices.Contains(m.hands[seat], mv.Card):
		// PYYOL-GOOF-MOVE: the card must be one of legal_actions.
		return fmt.Errorf("%w: card %d is not in hand %v", ErrIllegal, mv.Card, m.hands[seat])
	}
	return nil
}

// Bid seals a legal move for seat; it resolves the round once both seats
// have bid. An illegal move changes nothing.
func (m *Match) Bid(seat int, mv Move) error {
	if err := m.Check(seat, mv); err != nil {
		return err
	}
	m.seal(seat, mv, false)
	return nil
}

// Fallback seals the deterministic fallback for seat: its lowest card
// (PYYOL-GOOF-FALLBACK-LOWEST: "the engine bids your lowest legal card").
func (m *Match) Fallback(seat int) Move {
	mv := Move{Round: m.round, Card: m.hands[seat][0]}
	m.seal(seat, mv, true)
	return mv
}

// FallbackMove is the move Fallback would seal, without sealing it.
func (m *Match) FallbackMove(seat int) Move { return Move{Round: m.round, Card: m.hands[seat][0]} }

func (m *Match) seal(seat int, mv Move, fallback bool) {
	m.bids[seat] = &Move{Round: mv.Round, Card: mv.Card}
	m.fell[seat] = fallback
	// PYYOL-GOOF-SEALED: card_sealed carries no card value.
	m.emit(CardSealed, map[string]any{"round": m.round, "seat": seat})
	if m.bids[0] != nil && m.bids[1] != nil {
		m.resolve()
	}
}

// resolve settles the round: the higher bid takes the pool, ties follow the
// tie rule, both bid cards leave both hands.
func (m *Match) resolve() {
	prize, pool := m.order[m.round], m.Pool()
	cards := [2]int{m.bids[0].Card, m.bids[1].Card}
	winner := -1
	m.carried = 0
	switch {
	case cards[0] > cards[1]:
		winner = 0
	case cards[1] > cards[0]:
		winner = 1
	}
	if winner >= 0 {
		// PYYOL-GOOF-RESOLVE: "The higher bid takes the round's pool".
		m.scores[winner] += pool
	} else if m.rules.TieRule == Split {
		// PYYOL-GOOF-TIE-SPLIT: half each, an odd point carries forward.
		m.scores[0] += pool / 2
		m.scores[1] += pool / 2
		m.carried = pool % 2
	} else {
		// PYYOL-GOOF-TIE-CARRY: the tied pool stacks into the next round.
		m.carried = pool
	}
	for seat := range m.hands {
		// PYYOL-GOOF-RESOLVE: "the bid cards are then discarded from both
		// hands": each seat loses the card it bid (13 cards last 13 rounds).
		m.hands[seat] = slices.DeleteFunc(m.hands[seat], func(c int) bool { return c == cards[seat] })
	}
	r := Round{Round: m.round, Prize: prize, PrizePool: pool, Cards: cards, Winner: winner, Scores: m.scores, Fallback: m.fell}
	m.history = append(m.history, r)
	m.emit(RoundRevealed, r)
	m.bids, m.fell = [2]*Move{}, [2]bool{}
	m.round++
	if m.Done() {
		// PYYOL-REF-FINAL-CARRY: points still carried go to nobody.
		m.carried = 0
		res := m.Result()
		m.emit(MatchFinished, map[string]any{"winner": res.Winner, "scores": res.Scores, "reveal": res.Reveal})
		return
	}
	m.revealPrize()
}

func (m *Match) revealPrize() {
	m.emit(PrizeRevealed, map[string]any{"round": m.round, "prize": m.order[m.round], "prize_pool": m.Pool()})
}

// Result is the outcome so far; final once Done.
func (m *Match) Result() Result {
	// PYYOL-GOOF-WINNER: higher total wins, equal totals are a draw (-1).
	winner := -1
	switch {
	case m.scores[0] > m.scores[1]:
		winner = 0
	case m.scores[1] > m.scores[0]:
		winner = 1
	}
	res := Result{Winner: winner, Scores: m.scores, History: slices.Clone(m.history), Rules: m.rules}
	if m.Done() {
		// PYYOL-REF-COMMIT-SCHEME: the seed is revealed only at the end.
		res.Reveal = hex.EncodeToString(m.seed)
		res.PrizeOrder = slices.Clone(m.order)
	}
	return res
}
