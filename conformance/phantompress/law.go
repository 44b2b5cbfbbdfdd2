package phantompress

import (
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// evidence counts, independently of the engine's law, how the revealed
// material bears on one claim.
type evidence struct {
	offFor, offAgainst int
	forOrigins         map[string]bool
	againstOrigins     map[string]bool
	forKinds           map[string]int
	forSources         []string
}

func weigh(rv engine.Reveal, claim string) evidence {
	e := evidence{forOrigins: map[string]bool{}, againstOrigins: map[string]bool{}, forKinds: map[string]int{}}
	add := func(id, kind, origin string, claims []engine.ClaimRef) {
		for _, c := range claims {
			if c.Claim != claim {
				continue
			}
			official := kind == engine.KindOfficial
			switch {
			case c.Stance == engine.Supports && official:
				e.offFor++
			case c.Stance == engine.Contradicts && official:
				e.offAgainst++
			case c.Stance == engine.Supports:
				e.forOrigins[origin] = true
				e.forKinds[kind]++
				e.forSources = append(e.forSources, id)
			default:
				e.againstOrigins[origin] = true
			}
		}
	}
	for _, d := range rv.Documents {
		add(d.ID, d.Kind, d.Origin, d.Claims)
	}
	for _, t := range rv.Testimonies {
		add(t.Source, engine.KindTestimony, t.Origin, t.Claims)
	}
	return e
}

// lawCase is one scenario of law.feature: which claims it selects.
type lawCase struct {
	rule string
	pick func(e evidence, rv engine.Reveal) bool
}

func fabricatedOnly(e evidence, rv engine.Reveal) bool {
	if len(e.forSources) == 0 {
		return false
	}
	fab := map[string]bool{}
	for _, t := range rv.Traps {
		if t.Trap == "fabricated" {
			fab[t.Document] = true
		}
	}
	for _, s := range e.forSources {
		if !fab[s] {
			return false
		}
	}
	return true
}

var lawCases = map[string]lawCase{
	"an official record supports, with no official against it": {"PP-LAW-TRUE-OFFICIAL", func(e evidence, _ engine.Reveal) bool {
		return e.offFor > 0 && e.offAgainst == 0
	}},
	"two independent secondaries support, with no official against it": {"PP-LAW-TRUE-SECONDARY", func(e evidence, _ engine.Reveal) bool {
		return e.offFor == 0 && e.offAgainst == 0 && len(e.forOrigins) >= 2 && len(e.againstOrigins) < 2
	}},
	"an official record contradicts, with no official for it": {"PP-LAW-FALSE", func(e evidence, _ engine.Reveal) bool {
		return e.offAgainst > 0 && e.offFor == 0
	}},
	"two independent secondaries contradict, with no official either way": {"PP-LAW-FALSE", func(e evidence, _ engine.Reveal) bool {
		return e.offFor == 0 && e.offAgainst == 0 && len(e.againstOrigins) >= 2 && len(e.forOrigins) < 2
	}},
	"only one independent secondary takes a stance on": {"PP-LAW-UNVERIFIABLE", func(e evidence, _ engine.Reveal) bool {
		all := map[string]bool{}
		for o := range e.forOrigins {
			all[o] = true
		}
		for o := range e.againstOrigins {
			all[o] = true
		}
		return e.offFor == 0 && e.offAgainst == 0 && len(all) == 1
	}},
	"backed only by fabricated documents": {"PP-LAW-FABRICATED", func(e evidence, rv engine.Reveal) bool {
		return e.offFor == 0 && e.offAgainst == 0 && len(e.againstOrigins) < 2 && fabricatedOnly(e, rv)
	}},
	"a testimony and one independent secondary support": {"PP-LAW-TESTIMONY", func(e evidence, _ engine.Reveal) bool {
		docs := len(e.forSources) - e.forKinds[engine.KindTestimony]
		return e.offFor == 0 && e.offAgainst == 0 && e.forKinds[engine.KindTestimony] > 0 && docs > 0 &&
			len(e.forOrigins) >= 2 && len(e.againstOrigins) < 2
	}},
	"only testimonies of one origin support": {"PP-LAW-TESTIMONY", func(e evidence, _ engine.Reveal) bool {
		return e.offFor == 0 && e.offAgainst == 0 && len(e.forSources) > 0 && e.forKinds[engine.KindTestimony] == len(e.forSources) &&
			len(e.forOrigins) == 1 && len(e.againstOrigins) < 2
	}},
	"two independent secondaries support and two others contradict, with no official either way": {"PP-LAW-BOTH-BACKED", func(e evidence, _ engine.Reveal) bool {
		return e.offFor == 0 && e.offAgainst == 0 && len(e.forOrigins) >= 2 && len(e.againstOrigins) >= 2
	}},
	"secondaries of only one origin support": {"PP-LAW-INDEPENDENCE", func(e evidence, _ engine.Reveal) bool {
		return e.offFor == 0 && e.offAgainst == 0 && len(e.forSources) >= 2 && len(e.forOrigins) == 1 && len(e.againstOrigins) < 2
	}},
}

// originless reports whether a reveal shows a secondary source without the
// kit's origin field, without which independence cannot be judged
// (PP-DOC-FORMAT, PP-LAW-INDEPENDENCE).
func originless(rv engine.Reveal) bool {
	for _, s := range revealedSources(rv) {
		if s.Kind != engine.KindOfficial && s.Origin == "" {
			return true
		}
	}
	return false
}
