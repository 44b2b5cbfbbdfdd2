package engine

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// TestPacksOfferVariety checks every case number has at least two packs and
// that seeds draw different packs, so one finished run's reveal is not the
// answer key of every other run.
func TestPacksOfferVariety(t *testing.T) {
	packs := loadPacks(t)
	for _, s := range PerCase {
		if n := len(packsFor(packs, s.CaseNo)); n < 2 {
			t.Errorf("case %d has %d packs, want at least 2", s.CaseNo, n)
		}
	}
	drawn := map[int]map[string]bool{}
	for seed := uint64(0); seed < 64; seed++ {
		cases, err := Generate(packs, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if drawn[c.No] == nil {
				drawn[c.No] = map[string]bool{}
			}
			drawn[c.No][c.Pack] = true
		}
	}
	for _, s := range PerCase {
		if want := len(packsFor(packs, s.CaseNo)); len(drawn[s.CaseNo]) != want {
			t.Errorf("case %d: 64 seeds drew packs %v, want all %d", s.CaseNo, drawn[s.CaseNo], want)
		}
	}
}

// surface is one item an agent can see before publish: its public strings,
// and whether it is a trap (or a liar) of the class under test.
type surface struct {
	texts  []string
	marked bool
}

// grams returns every substring of 1..4 runes of s.
func grams(s string) map[string]bool {
	r := []rune(s)
	out := map[string]bool{}
	for i := range r {
		for n := 1; n <= 4 && i+n <= len(r); n++ {
			out[string(r[i:i+n])] = true
		}
	}
	return out
}

// giveaways returns the substrings of field f that every marked item holds
// and no unmarked item does: a surface feature that separates the class.
func giveaways(items []surface, f int) []string {
	var common map[string]bool
	other := map[string]bool{}
	for _, it := range items {
		g := grams(it.texts[f])
		if !it.marked {
			for k := range g {
				other[k] = true
			}
			continue
		}
		if common == nil {
			common = g
			continue
		}
		for k := range common {
			if !g[k] {
				delete(common, k)
			}
		}
	}
	var out []string
	for k := range common {
		if !other[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// TestTrapsAndLiarsHaveNoSurfaceTell checks that no title, origin, kind or
// wording is shared by every trap of a kind (or every liar) across the packs
// while absent from all genuine material (or honest witnesses): trap
// locations and witness types must not be derivable before publish
// (PP-HIDE-BEFORE-PUBLISH).
func TestTrapsAndLiarsHaveNoSurfaceTell(t *testing.T) {
	packs := loadPacks(t)
	for _, trap := range []string{"tampered", "fabricated"} {
		var items []surface
		for _, p := range packs {
			for _, d := range p.Documents {
				items = append(items, surface{texts: []string{d.Title, d.Origin, d.Kind, d.Text}, marked: d.Trap == trap})
			}
		}
		for f, name := range []string{"title", "origin", "kind", "text"} {
			if g := giveaways(items, f); len(g) > 0 {
				t.Errorf("every %s document's %s holds %q, which no genuine document's does", trap, name, g)
			}
		}
	}
	var items []surface
	for _, p := range packs {
		for _, w := range p.Witnesses {
			for _, tp := range w.Topics {
				items = append(items, surface{texts: []string{w.Name, tp.Title, tp.Origin, tp.Text}, marked: w.Type == "liar"})
			}
		}
	}
	for f, name := range []string{"name", "topic title", "testimony origin", "testimony text"} {
		if g := giveaways(items, f); len(g) > 0 {
			t.Errorf("every liar's %s holds %q, which no honest witness's does", name, g)
		}
	}
}

// TestGiveawaysFindsATell proves the surface check can fail: a marker only
// the marked items carry is reported.
func TestGiveawaysFindsATell(t *testing.T) {
	items := []surface{
		{texts: []string{"秘書・杉本の証言"}, marked: true},
		{texts: []string{"店主・早瀬の証言"}, marked: true},
		{texts: []string{"組合長・浜田の見聞"}},
	}
	if g := giveaways(items, 0); !strings.Contains(strings.Join(g, " "), "証言") {
		t.Errorf("giveaways = %q, want the liars' 証言 reported", g)
	}
}
