package pyyol

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// gatewayGoofspielSteps registers the steps of features/pyyol/gateway-goofspiel.feature.
func (g *gwRun) gatewayGoofspielSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the commitment matched the reveal$`), g.commitment)
	sc.Step(pattern(`^no bid was shown before its round resolved$`), g.sealed)
	sc.Step(pattern(`^the winner followed the final scores$`), g.winner)
	sc.Step(pattern(`^the events were the documented Goofspiel events$`), g.eventTypes)
}

// sealed checks that card_sealed carries no card and no view shows the
// opponent's bid of the round being bid.
func (g *gwRun) sealed() error {
	for _, e := range g.events {
		if e.Type != goofspiel.CardSealed {
			continue
		}
		p := map[string]any{}
		_ = jsonInto(e.Payload, &p)
		for _, k := range []string{"card", "cards", "bid"} {
			if _, ok := p[k]; ok {
				return verdict.Failf("PYYOL-GOOF-SEALED", "no card value", describe(p), "card_sealed payload")
			}
		}
	}
	return nil
}

func (g *gwRun) winner() error {
	res, err := g.result()
	if err != nil {
		return err
	}
	want := -1
	switch {
	case res.Scores[0] > res.Scores[1]:
		want = 0
	case res.Scores[1] > res.Scores[0]:
		want = 1
	}
	if res.Winner != want {
		return verdict.Failf("PYYOL-GOOF-WINNER", want, res.Winner, "winner for scores %v", res.Scores)
	}
	return nil
}

// eventTypes: every event is of a documented type, and each prize
// revealed is its round's (PYYOL-GOOF-EVENTS, prizesRevealed).
func (g *gwRun) eventTypes() error {
	known := []string{goofspiel.MatchCreated, goofspiel.PrizeRevealed, goofspiel.CardSealed, goofspiel.RoundRevealed, goofspiel.MatchFinished}
	for _, e := range g.events {
		if !slices.Contains(known, e.Type) {
			return verdict.Failf("PYYOL-GOOF-EVENTS", strings.Join(known, ", "), e.Type, "event type")
		}
	}
	return g.prizesRevealed()
}

// carriesString reports whether v, or a value nested in it, is one of
// values: the rule set's documented values (tie_rule carry or split,
// fairness_mode shuffled or open), found under whatever names and
// nesting the gateway gives them.
func carriesString(v any, values []string) bool {
	switch v := v.(type) {
	case string:
		return slices.Contains(values, v)
	case map[string]any:
		for _, x := range v {
			if carriesString(x, values) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, func(x any) bool { return carriesString(x, values) })
	}
	return false
}

// commitment judges the commit-reveal of the prize order, MUST conditions
// first: match_created carries a commitment (PYYOL-GOOF-COMMITMENT); in
// shuffled mode no frame hands out the order or its seed before the match
// ends (PYYOL-GOOF-SHUFFLED). Only then is the reveal read: a commitment
// that is not sha256 of the revealed seed is the target's own scheme,
// noted (PYYOL-REF-COMMIT-SCHEME) with the order left unchecked; under the
// reference's scheme the prizes must follow the order the reveal commits
// to (PYYOL-GOOF-SHUFFLED).
func (g *gwRun) commitment() error {
	created, ok := g.payload(goofspiel.MatchCreated)
	res, err := g.result()
	if err != nil {
		return err
	}
	commitment, _ := created["commitment"].(string)
	if !ok || commitment == "" {
		return verdict.Failf("PYYOL-GOOF-COMMITMENT", "match_created with a commitment", describe(created), "match_created")
	}
	for _, values := range [][]string{{goofspiel.Carry, goofspiel.Split}, {goofspiel.Shuffled, goofspiel.Open}} {
		if !carriesString(created, values) {
			return verdict.Failf("PYYOL-GOOF-COMMITMENT", "match_created's rule set with its tie rule and fairness mode", describe(created),
				"no %s in match_created", strings.Join(values, " or "))
		}
	}
	reveal := res.Reveal
	if finished, ok := g.payload(goofspiel.MatchFinished); ok && reveal == "" {
		reveal, _ = finished["reveal"].(string)
	}
	if res.Rules.FairnessMode == goofspiel.Shuffled {
		if err := g.orderKeptSecret(res, reveal); err != nil {
			return err
		}
	}
	seed, err := hex.DecodeString(reveal)
	if err != nil || reveal == "" {
		return verdict.Skipf("game_end reveals no hex seed: the commitment scheme is the target's own (PYYOL-REF-COMMIT-SCHEME)")
	}
	sum := sha256.Sum256(seed)
	if hex.EncodeToString(sum[:]) != commitment {
		g.env.HTTP.Recorder().Finding(verdict.Failf("PYYOL-REF-COMMIT-SCHEME", commitment, hex.EncodeToString(sum[:]),
			"sha256 of the revealed seed: the prize order is unchecked under the target's own scheme"))
		return nil
	}
	order := goofspiel.PrizeOrder(res.Rules, seed)
	for _, r := range res.History {
		if r.Round < len(order) && order[r.Round] != r.Prize {
			return verdict.Failf("PYYOL-GOOF-SHUFFLED", order, describe(res.History), "the prizes the reveal commits to")
		}
	}
	return nil
}

// secretOrderKeys are the names under which a frame would hand out the
// prize order, or the seed that derives it, before the match ends.
var secretOrderKeys = map[string]bool{"prize_order": true, "prizes": true, "remaining_prizes": true, "deck": true, "seed": true, "reveal": true}

// orderKeptSecret fails PYYOL-GOOF-SHUFFLED when a turn or an event before
// match_finished hands out what the commitment hides, whatever the frame's
// layout: the seed the match revealed at its end, or, under one of
// secretOrderKeys, three or more prizes in the order they were drawn
// (the remaining prizes as a sorted set are public and pass).
func (g *gwRun) orderKeptSecret(res goofspiel.Result, reveal string) error {
	drawn := make([]int, 0, len(res.History))
	for _, r := range res.History {
		drawn = append(drawn, r.Prize)
	}
	for _, f := range append(slices.Clone(g.turns), g.events...) {
		if f.Type == goofspiel.MatchFinished {
			continue
		}
		if k := leakIn(f.document(), drawn, reveal); k != "" {
			return verdict.Failf("PYYOL-GOOF-SHUFFLED", "the prize order secret until the reveal", "field "+k,
				"a %s frame before the match ended: %s", f.T, clipRaw(string(f.wire)))
		}
	}
	return nil
}

// leakIn returns the first key of secretOrderKeys in doc whose value gives
// the order away: the revealed seed, or a run of the drawn prizes that is
// not sorted; "" when none does.
func leakIn(doc any, drawn []int, reveal string) string {
	switch v := doc.(type) {
	case map[string]any:
		for k, x := range v {
			if secretOrderKeys[k] && givesOrderAway(x, drawn, reveal) {
				return k
			}
			if found := leakIn(x, drawn, reveal); found != "" {
				return found
			}
		}
	case []any:
		for _, x := range v {
			if found := leakIn(x, drawn, reveal); found != "" {
				return found
			}
		}
	}
	return ""
}

// givesOrderAway reports whether v is the revealed seed, or a list of at
// least three prizes, not sorted, found in that order among the drawn ones.
func givesOrderAway(v any, drawn []int, reveal string) bool {
	if s, ok := v.(string); ok {
		return reveal != "" && strings.EqualFold(s, reveal)
	}
	list, ok := v.([]any)
	if !ok || len(list) < 3 {
		return false
	}
	prizes := make([]int, 0, len(list))
	for _, x := range list {
		n, ok := x.(float64)
		if !ok {
			return false
		}
		prizes = append(prizes, int(n))
	}
	if slices.IsSorted(prizes) || slices.IsSortedFunc(prizes, func(a, b int) int { return b - a }) {
		return false
	}
	for i := 0; i+len(prizes) <= len(drawn); i++ {
		if slices.Equal(drawn[i:i+len(prizes)], prizes) {
			return true
		}
	}
	return false
}

// clipRaw shows at most 300 bytes of a frame in a failure.
func clipRaw(raw string) string {
	if len(raw) > 300 {
		return raw[:300] + "…"
	}
	return raw
}
