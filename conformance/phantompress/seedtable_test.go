package phantompress

import (
	"reflect"
	"testing"

	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// TestSeedTable holds the reference engine's settlement and score to the
// runner's own copy of the seed's numbers, for every answer against every
// correct verdict in every case and at the trust edges.
func TestSeedTable(t *testing.T) {
	t.Parallel()
	verdicts := []engine.Verdict{engine.True, engine.False, engine.Unverifiable}
	var all []engine.Graded
	for _, v := range verdicts {
		for _, c := range []engine.Confidence{engine.Assert, engine.Hedge} {
			for _, correct := range verdicts {
				all = append(all, engine.Graded{Question: "q1", Verdict: v, Confidence: c, Correct: correct})
			}
		}
	}
	for caseNo := 1; caseNo <= 4; caseNo++ {
		for _, g := range all {
			if got, want := engine.SettleLine(g, caseNo), seedLine(g, caseNo); got != want {
				t.Errorf("case %d %+v: engine %+v, seed %+v", caseNo, g, got, want)
			}
		}
		for _, trust := range []int{1, 11, 50, 100} {
			if got, want := engine.Settle(caseNo, trust, all), seedSettle(caseNo, trust, all); !reflect.DeepEqual(got, want) {
				t.Errorf("case %d at trust %d: engine %+v, seed %+v", caseNo, trust, got, want)
			}
		}
	}
	if !reflect.DeepEqual(engine.PerCase, seedCases) || engine.APRead != seedAPRead || engine.APInterview != seedAPInterview ||
		engine.TurnLimit != seedTurnLimit || engine.MaxRejections != seedMaxRejections ||
		engine.MaxComments != seedMaxComments || engine.MaxCommentRunes != seedMaxCommentRunes {
		t.Error("the engine's case table, costs or limits differ from the seed's")
	}
	if engine.Score(100, 7, 9) != seedScore(100, 7, 9) || engine.TrustInit != seedTrustInit || engine.TrustMax != seedTrustMax {
		t.Error("the engine's score or trust bounds differ from the seed's")
	}
}
