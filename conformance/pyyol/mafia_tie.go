package pyyol

import (
	"slices"
	"strconv"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// tieVote is the runner's vote when it can make or keep a tie for the
// most votes, so a live match shows a real tie and the tie rule is judged
// on it (PYYOL-MAFIA-VOTE, PYYOL-MAFIA-REF-VOTE-TIE). The runner votes
// last at its seat (11) when the platform collects votes in seat order,
// and reads the votes cast so far from the public transcript: with two
// seats already tied it votes for a third, with one seat a vote behind
// the leader it votes for that one; otherwise it has no tie to make.
func tieVote(v mafiaView) (mafia.Move, bool) {
	if !slices.Contains(v.Legal, mafia.ActVote) {
		return mafia.Move{}, false
	}
	counts := votesToday(v.Public)
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	var leaders, behind, others []int
	for s := range len(v.Alive) {
		if v.Alive[strconv.Itoa(s)] != true {
			continue
		}
		switch {
		case counts[s] == top:
			leaders = append(leaders, s)
		case s == v.YourSeat:
		case counts[s] == top-1:
			behind = append(behind, s)
		default:
			others = append(others, s)
		}
	}
	vote := func(s int) (mafia.Move, bool) { return mafia.Move{Action: mafia.ActVote, Target: mafia.At(s)}, true }
	switch {
	case top == 0:
	case len(leaders) >= 2 && len(others) > 0:
		return vote(others[0])
	case len(leaders) >= 2 && top > 1 && len(behind) > 0:
		return vote(behind[0])
	case len(leaders) == 1 && len(behind) > 0:
		return vote(behind[0])
	}
	return mafia.Move{}, false
}

// votesToday counts the votes of the current voting phase: those after
// the last phase event of the transcript.
func votesToday(public []mafiaEvent) map[int]int {
	counts := map[int]int{}
	for i := len(public) - 1; i >= 0; i-- {
		e := public[i]
		if e.Type == mafia.EventPhase {
			break
		}
		if e.Type == mafia.EventVote {
			if t, ok := e.Payload["target"].(float64); ok {
				counts[int(t)]++
			}
		}
	}
	return counts
}

// maxTieMatches bounds the matches the runner plays looking for a tie:
// against the reference a tie comes in about two matches of five.
const maxTieMatches = 12

// hadTie reports whether some voting phase of the match ended with two or
// more seats tied for the most votes.
func hadTie(mm *mafiaMatch) bool {
	for _, run := range phaseRuns(mm.timeline()) {
		if run[0].phase != mafia.Voting {
			continue
		}
		counts := map[int]int{}
		for _, s := range run {
			if s.event.Type == mafia.EventVote {
				counts[intOf(s.event.Payload["target"])]++
			}
		}
		top, tied := 0, 0
		for _, n := range counts {
			switch {
			case n > top:
				top, tied = n, 1
			case n == top:
				tied++
			}
		}
		if tied > 1 {
			return true
		}
	}
	return false
}
