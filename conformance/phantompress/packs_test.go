package phantompress

import (
	"math/rand/v2"
	"testing"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// TestEveryPackChoiceMeetsEveryLawScenario builds a case from every pack and
// checks that, whichever pack a run draws for each case number, the four
// cases hold a claim for every selection of law.feature: the played-through
// run never skips a law scenario, whatever its seed.
func TestEveryPackChoiceMeetsEveryLawScenario(t *testing.T) {
	t.Parallel()
	raw, err := fixtures.ReadFile("phantom-press/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	packs, err := engine.ParsePacks(raw)
	if err != nil {
		t.Fatal(err)
	}
	// hits[case][pack] is the set of law selections one pack meets.
	hits := map[int]map[string]map[string]bool{}
	for _, p := range packs {
		s, _ := engine.SpecOf(p.CaseNo)
		only := []engine.Pack{p}
		for _, o := range packs {
			if o.CaseNo != p.CaseNo {
				only = append(only, o)
			}
		}
		cases, err := engine.Generate(only, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		rv := engine.RevealOf(cases[s.CaseNo-1])
		got := map[string]bool{}
		for phrase, lc := range lawCases {
			for _, q := range rv.Questions {
				if lc.pick(weigh(rv, q.Claim), rv) {
					got[phrase] = true
				}
			}
		}
		if hits[p.CaseNo] == nil {
			hits[p.CaseNo] = map[string]map[string]bool{}
		}
		hits[p.CaseNo][p.Key] = got
	}
	var walk func(caseNo int, met map[string]bool, chosen []string)
	walk = func(caseNo int, met map[string]bool, chosen []string) {
		if caseNo > len(engine.PerCase) {
			for phrase := range lawCases {
				if !met[phrase] {
					t.Errorf("packs %v: no claim is one that %s", chosen, phrase)
				}
			}
			return
		}
		for key, got := range hits[caseNo] {
			next := map[string]bool{}
			for k := range met {
				next[k] = true
			}
			for k := range got {
				next[k] = true
			}
			walk(caseNo+1, next, append(append([]string(nil), chosen...), key))
		}
	}
	walk(1, map[string]bool{}, nil)
}
