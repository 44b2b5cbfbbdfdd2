package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/agentgames/conformance/fixtures"
)

func loadPacks(t *testing.T) []Pack {
	t.Helper()
	raw, err := fixtures.ReadFile("phantom-press/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePacks(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func packSources(p Pack) []Source {
	var out []Source
	for _, d := range p.Documents {
		out = append(out, Source{ID: d.Key, Kind: d.Kind, Origin: d.Origin, Claims: d.Claims})
	}
	for _, w := range p.Witnesses {
		for _, tp := range w.Topics {
			out = append(out, Source{ID: w.Key + ":" + tp.Key, Kind: KindTestimony, Origin: tp.Origin, Claims: tp.Claims})
		}
	}
	return out
}

// TestPacksDeriveTheirAuthorsVerdicts checks every hand-written question:
// the law over the whole pack gives the verdict and branch its author meant.
func TestPacksDeriveTheirAuthorsVerdicts(t *testing.T) {
	for _, p := range loadPacks(t) {
		src := packSources(p)
		for _, q := range p.Questions {
			if got := Law(src, q.Claim); got != q.Expect {
				t.Errorf("%s/%s: law gives %s, author expects %s", p.Key, q.Claim, got, q.Expect)
			}
			if got := Branch(src, q.Claim); got != q.Branch {
				t.Errorf("%s/%s: branch %s, author expects %s", p.Key, q.Claim, got, q.Branch)
			}
		}
	}
}

// TestPacksCoverEveryBranch proves the fixtures exercise each branch of the
// law the brief lists, with traps and both witness types.
func TestPacksCoverEveryBranch(t *testing.T) {
	branches := map[string]bool{}
	traps := map[string]bool{}
	types := map[string]bool{}
	dependent, testimonyBacked := false, false
	for _, p := range loadPacks(t) {
		for _, q := range p.Questions {
			branches[q.Branch] = true
		}
		for _, d := range p.Documents {
			traps[d.Trap] = true
		}
		for _, w := range p.Witnesses {
			types[w.Type] = true
		}
		src := packSources(p)
		for _, q := range p.Questions {
			supp := 0
			origins := map[string]bool{}
			for _, s := range src {
				if IsSecondary(s.Kind) && stanceOn(s, q.Claim) == Supports {
					supp++
					origins[s.Origin] = true
					if s.Kind == KindTestimony && q.Expect == True && q.Branch == "true-secondary" {
						testimonyBacked = true
					}
				}
			}
			if supp >= 2 && len(origins) == 1 && q.Expect == Unverifiable {
				dependent = true
			}
		}
	}
	for _, b := range []string{"true-official", "true-secondary", "false-official", "false-secondary", "unverifiable-insufficient", "unverifiable-both-backed"} {
		if !branches[b] {
			t.Errorf("no question on branch %s", b)
		}
	}
	if !traps["tampered"] || !traps["fabricated"] || !types["honest"] || !types["liar"] {
		t.Errorf("traps %v, witness types %v: want tampered, fabricated, honest and liar", traps, types)
	}
	if !dependent || !testimonyBacked {
		t.Errorf("dependent-secondaries question: %v; testimony-backed question: %v", dependent, testimonyBacked)
	}
}

// TestGenerateIsSeeded checks the same seed gives the same run, another
// seed another shuffle, and every case matches the per_case table.
func TestGenerateIsSeeded(t *testing.T) {
	packs := loadPacks(t)
	gen := func(seed uint64) []*Case {
		c, err := Generate(packs, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := gen(1), gen(1)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different runs")
	}
	differs := false
	for s := uint64(2); s < 6; s++ {
		if !reflect.DeepEqual(a, gen(s)) {
			differs = true
		}
	}
	if !differs {
		t.Error("every seed gave the same run")
	}
	for i, c := range a {
		s := PerCase[i]
		if c.No != s.CaseNo || c.AP != s.AP || len(c.Documents) != s.Documents || len(c.Witnesses) != s.Witnesses || len(c.Questions) != s.Questions {
			t.Errorf("case %d: %d/%d/%d/%d/%d, want %+v", i+1, c.No, c.AP, len(c.Documents), len(c.Witnesses), len(c.Questions), s)
		}
	}
}
