package pyyol

import (
	"errors"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// failsNaming reports whether err is a failure naming rule.
func failsNaming(err error, rule string) bool {
	var f *verdict.Failure
	return errors.As(err, &f) && f.RuleID == rule
}

// TestViewRoundsAreRecomputed: a view is current when no card its
// history shows played is still legal and its history ends one round
// before its own, in either numbering base (PYYOL-PLAT-TURN-BODY).
func TestViewRoundsAreRecomputed(t *testing.T) {
	played := []playedRound{{0, 5}, {1, 9}}
	cases := []struct {
		name string
		v    turnView
		fail bool
	}{
		{"current, from 0", turnView{round: 2, hand: []int{1, 2}, history: played}, false},
		{"current, from 1", turnView{round: 3, hand: []int{1, 2}, history: []playedRound{{1, 5}, {2, 9}}}, false},
		{"first round, no history", turnView{round: 0, hand: []int{1, 2}}, false},
		{"a played card still legal", turnView{round: 2, hand: []int{1, 9}, history: played}, true},
		{"history one round behind", turnView{round: 3, hand: []int{1, 2}, history: played}, true},
	}
	for _, c := range cases {
		err := judgeViewRounds(c.v)
		if failed := failsNaming(err, "PYYOL-PLAT-TURN-BODY"); failed != c.fail {
			t.Errorf("%s: %v; want a fail %v", c.name, err, c.fail)
		}
	}
}

// TestResultCoversEveryTurnRound: a final result's history holds a row
// per round pushed, counted whatever its numbering (PYYOL-PLAT-GAME-END-BODY).
func TestResultCoversEveryTurnRound(t *testing.T) {
	rows := func(n int) map[string]any {
		h := make([]any, n)
		for i := range h {
			h[i] = map[string]any{"round": i + 1}
		}
		return map[string]any{"history": h}
	}
	if err := judgeResultCoversTurns(rows(13), 13); err != nil {
		t.Errorf("a full history: %v", err)
	}
	if err := judgeResultCoversTurns(map[string]any{"winner": 0}, 13); err != nil {
		t.Errorf("a result without history: %v", err)
	}
	if err := judgeResultCoversTurns(rows(12), 13); !failsNaming(err, "PYYOL-PLAT-GAME-END-BODY") {
		t.Errorf("a history one round short: %v; want a fail", err)
	}
}
