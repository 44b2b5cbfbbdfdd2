package pyyol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// refereeLog is what the shadow referee found over a scenario's matches:
// the first mismatch and the states the matches reached.
type refereeLog struct {
	err     error
	matches int
	reached map[string]bool
}

// monoStates are the states the steering aims at, in report order.
var monoStates = []string{"jail", "auction", "trade", "counter-offer", "houses", "hotel", "rent on houses",
	"railroad rent", stateThreeRailroads, "utility rent", stateBothUtilities, "tax", "debt", "bankruptcy", "turn cap"}

// stateBothUtilities is a utility's rent owed to an owner of both.
const stateBothUtilities = "utility rent with both held"

// stateThreeRailroads is a railroad's rent owed to an owner of three or
// more.
const stateThreeRailroads = "railroad rent with three or more held"

// refereeDone referees the match just played and books the states it
// reached; the first mismatch of the scenario is kept for its step.
func (m *monoRun) refereeDone() {
	if m.ref == nil {
		m.ref = &refereeLog{reached: map[string]bool{}}
	}
	m.ref.matches++
	if m.ref.err == nil {
		m.ref.err = m.refereeMonopoly()
	}
	for _, s := range m.statesReached() {
		m.ref.reached[s] = true
	}
}

// statesReached lists the states of monoStates this match showed.
func (m *monoRun) statesReached() []string {
	board := standardBoard()
	got := map[string]bool{}
	houses, pos := map[int]int{}, map[int]int{}
	limit, capped := m.rule("turn_cap")
	for _, e := range m.events {
		p := payload(e)
		sq, _ := fieldInt(p, "property")
		switch e.Type {
		case "went_to_jail":
			got["jail"] = true
		case "auction_started":
			got["auction"] = true
		case "trade_executed":
			got["trade"] = true
		case "house_built", "house_sold":
			houses[sq] = houseCount(p, houses[sq])
			got["houses"] = true
			got["hotel"] = got["hotel"] || houses[sq] == 5
		case "bankrupt":
			got["bankruptcy"] = true
		case "turn_started":
			turn, ok := fieldInt(p, "turn")
			got["turn cap"] = got["turn cap"] || capped && ok && turn >= limit
		case "cash_changed":
			got["tax"] = got["tax"] || p["reason"] == "tax"
		case "moved":
			seat, _ := fieldInt(p, "seat")
			pos[seat], _ = fieldInt(p, "to")
		case "rent_paid":
			from, _ := fieldInt(p, "from")
			bookRent(got, board, houses, pos[from], p["reason"] == "rent")
		}
	}
	for _, t := range m.turns {
		a, _ := t.move["action"].(string)
		got["counter-offer"] = got["counter-offer"] || a == "counter_trade" && slices.Contains(t.view.LegalActions, a)
		got["debt"] = got["debt"] || t.view.Phase == "resolve_debt"
	}
	var out []string
	for _, s := range monoStates {
		if got[s] {
			out = append(out, s)
		}
	}
	return out
}

// bookRent notes which kind of rent a rent_paid for landing on sq was.
func bookRent(got map[string]bool, board *monopoly.Board, houses map[int]int, sq int, rent bool) {
	if board == nil || !rent || !board.Ownable(sq) {
		return
	}
	switch board.Squares[sq].Kind {
	case monopoly.KindRailroad:
		got["railroad rent"] = true
	case monopoly.KindUtility:
		got["utility rent"] = true
	default:
		got["rent on houses"] = got["rent on houses"] || houses[sq] > 0
	}
}

// noteStates writes the states reached and not reached in the run's
// transcript: a note, never a warning.
func (m *monoRun) noteStates() {
	if m.ref == nil || m.g.env == nil || m.g.env.HTTP == nil {
		return
	}
	var yes, no []string
	for _, s := range monoStates {
		if m.ref.reached[s] {
			yes = append(yes, s)
		} else {
			no = append(no, s)
		}
	}
	m.g.env.HTTP.Recorder().Note(fmt.Sprintf(verdict.InfoPrefix+"monopoly states reached in %d matches: %s; not reached: %s",
		m.ref.matches, orNone(yes), orNone(no)))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// checkReferee is the referee scenario's verdict: the first mismatch any
// of its matches showed, after noting the states they reached.
func (m *monoRun) checkReferee() error {
	m.noteStates()
	if m.ref == nil {
		return nil
	}
	return m.ref.err
}
