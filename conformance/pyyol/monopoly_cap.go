package pyyol

import (
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
)

// endWinners is the seats game_end's result names as winners (winners,
// winner, or both), none before game_end.
func (m *monoRun) endWinners() []int {
	if m.end == nil {
		return nil
	}
	var res struct {
		Winners []int `json:"winners"`
		Winner  *int  `json:"winner"`
	}
	jsonInto(m.end.Result, &res)
	w := res.Winners
	if res.Winner != nil {
		w = append(w, *res.Winner)
	}
	return w
}

// capWinner: a match that finished with two or more seats solvent was
// ended by the turn cap, and "the seat with the highest net worth wins
// (ties possible)" (PYYOL-MONO-WIN-TURN-CAP). How a net worth is summed
// is the platform's (PYYOL-MONO-REF-TURN-CAP), so the kit sums none of
// its own: where match_finished states every seat's net_worths, as the
// real platform sends them (docs/pyyol-monopoly-layout.md), a winner
// whose own stated worth is below another solvent seat's won by
// something else (its cash alone, say). Without those figures, or
// without a named winner, nothing is decided.
func (m *monoRun) capWinner(players int, bankrupt map[int]bool) error {
	var fin map[string]any
	for _, e := range m.events {
		if e.Type == "match_finished" {
			fin = payload(e)
		}
	}
	worths, _ := fin["net_worths"].([]any)
	if len(worths) != players || players-len(bankrupt) < 2 {
		return nil
	}
	worth := func(s int) (int, bool) {
		f, ok := worths[s].(float64)
		return int(f), ok && !bankrupt[s]
	}
	winners := m.endWinners()
	if w, ok := fieldInt(fin, "winner"); ok && w >= 0 && len(winners) == 0 {
		winners = []int{w}
	}
	for _, w := range winners {
		mine, ok := worth(w)
		if w < 0 || w >= players || !ok {
			continue
		}
		for s := range players {
			if theirs, ok := worth(s); ok && theirs > mine {
				return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", fmt.Sprintf("seat %d, net worth %d, the highest stated", s, theirs),
					fmt.Sprintf("seat %d, net worth %d", w, mine), "the winner of a match the turn cap ended (match_finished's net_worths)")
			}
		}
	}
	return nil
}
