// Package goofspiel is Pyyol's Goofspiel engine (games.md "Goofspiel"):
// pure and seeded, no I/O. Two seats hold identical hands, each round one
// prize is revealed, both seats bid a sealed card, the higher bid takes the
// round's pool. The gateway, the push referee and the runner's model all
// play through it.
package goofspiel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// The configurable rules (games.md "Configurable rules").
const (
	Shuffled = "shuffled"
	Open     = "open"
	Carry    = "carry"
	Split    = "split"
	// StandardCards is the standard hand: cards 1..13, 13 rounds.
	StandardCards = 13
)

// Rules is a match's rule set, as match_created announces it.
type Rules struct {
	Cards        int    `json:"cards"`
	Rounds       int    `json:"rounds"`
	FairnessMode string `json:"fairness_mode"`
	TieRule      string `json:"tie_rule"`
}

// Standard returns the default rules: 13 cards and rounds, shuffled prizes,
// tied pools carried.
func Standard() Rules {
	// PYYOL-GOOF-ROUNDS: "Standard is 13 rounds with cards 1..13".
	// PYYOL-GOOF-SHUFFLED, PYYOL-GOOF-TIE-CARRY: the defaults.
	return Rules{Cards: StandardCards, Rounds: StandardCards, FairnessMode: Shuffled, TieRule: Carry}
}

// Normalize fills unset fields with the standard ones and checks the rest.
func (r Rules) Normalize() (Rules, error) {
	std := Standard()
	if r.Cards == 0 {
		r.Cards = std.Cards
	}
	if r.Rounds == 0 {
		r.Rounds = r.Cards
	}
	if r.FairnessMode == "" {
		r.FairnessMode = std.FairnessMode
	}
	if r.TieRule == "" {
		r.TieRule = std.TieRule
	}
	switch {
	case r.Cards < 1 || r.Cards > 52:
		return r, fmt.Errorf("goofspiel: cards %d out of 1..52", r.Cards)
	case r.Rounds != r.Cards:
		return r, fmt.Errorf("goofspiel: rounds %d must equal cards %d", r.Rounds, r.Cards)
	case r.FairnessMode != Shuffled && r.FairnessMode != Open:
		return r, fmt.Errorf("goofspiel: unknown fairness_mode %q", r.FairnessMode)
	case r.TieRule != Carry && r.TieRule != Split:
		return r, fmt.Errorf("goofspiel: unknown tie_rule %q", r.TieRule)
	}
	return r, nil
}

// Commitment is hex(sha256(seed)): what match_created publishes before any
// prize is known (PYYOL-REF-COMMIT-SCHEME).
func Commitment(seed []byte) string {
	sum := sha256.Sum256(seed)
	return hex.EncodeToString(sum[:])
}

// PrizeOrder is the order the prizes 1..cards are revealed in. Open mode is
// the fixed ascending card order (PYYOL-GOOF-OPEN, PYYOL-REF-OPEN-ORDER);
// shuffled mode is a Fisher-Yates shuffle driven by sha256(seed ||
// counter) blocks, so the revealed seed proves the order
// (PYYOL-GOOF-SHUFFLED).
func PrizeOrder(r Rules, seed []byte) []int {
	order := make([]int, r.Cards)
	for i := range order {
		order[i] = i + 1
	}
	if r.FairnessMode == Open {
		return order
	}
	stream := newStream(seed)
	for i := len(order) - 1; i > 0; i-- {
		j := int(stream.next() % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// stream yields 64-bit numbers from sha256(seed || big-endian counter).
type stream struct {
	seed    []byte
	counter uint32
	buf     []byte
}

func newStream(seed []byte) *stream { return &stream{seed: seed} }

func (s *stream) next() uint64 {
	if len(s.buf) < 8 {
		var c [4]byte
		binary.BigEndian.PutUint32(c[:], s.counter)
		s.counter++
		sum := sha256.Sum256(append(append([]byte{}, s.seed...), c[:]...))
		s.buf = sum[:]
	}
	v := binary.BigEndian.Uint64(s.buf[:8])
	s.buf = s.buf[8:]
	return v
}
