package bounty

import (
	"testing"

	"github.com/agentgames/conformance/reference/bounty"
)

// TestWindowSpansTheRunnersWholeWait: the boards a next_move is checked
// against run from the board as read to the runner's measured wait plus
// slack, so a grace that lapses while a slow runner waits (29 s combinable,
// 3 s wait) is among them, and nothing past the window is.
func TestWindowSpansTheRunnersWholeWait(t *testing.T) {
	t.Parallel()
	b := bounty.Board{CombinableForS: 29, Entries: []bounty.Entry{{AgentID: "a", ExpiresInS: 100}}}
	boards := window(b, 3, slack)
	first, last := boards[0], boards[len(boards)-1]
	if first.CombinableForS != 29 || last.CombinableForS != 29+3+slack || last.Entries[0].ExpiresInS != 100-3-slack {
		t.Errorf("window from %v to %v; want 29 s to %v s combinable", first.CombinableForS, last.CombinableForS, 29+3+slack)
	}
	lapsed := 0
	for _, w := range boards {
		if w.CombinableForS >= bounty.BrokerGraceSeconds {
			lapsed++
		}
	}
	if lapsed == 0 || lapsed == len(boards) {
		t.Errorf("%d of %d boards past the grace; want the window to straddle it", lapsed, len(boards))
	}
	if b.Entries[0].ExpiresInS != 100 {
		t.Error("window changed the board it was given")
	}
}

// TestWindowOnTheEmbeddedClockIsExact: with no wait and no slack (the
// embedded reference's clock) the window is the board as read alone, so
// a grace lapsing one second late or early is a mismatch, not a tie.
func TestWindowOnTheEmbeddedClockIsExact(t *testing.T) {
	t.Parallel()
	b := bounty.Board{CombinableForS: 30}
	if boards := window(b, 0, 0); len(boards) != 1 || boards[0].CombinableForS != 30 {
		t.Errorf("window %v; want the board as read alone", boards)
	}
}
