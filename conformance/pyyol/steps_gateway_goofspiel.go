package pyyol

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

func (g *gwRun) eventTypes() error {
	known := []string{goofspiel.MatchCreated, goofspiel.PrizeRevealed, goofspiel.CardSealed, goofspiel.RoundRevealed, goofspiel.MatchFinished}
	for _, e := range g.events {
		if !slices.Contains(known, e.Type) {
			return verdict.Failf("PYYOL-GOOF-EVENTS", strings.Join(known, ", "), e.Type, "event type")
		}
	}
	return nil
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
	if res.Rules.FairnessMode == goofspiel.Shuffled {
		if err := g.orderKeptSecret(); err != nil {
			return err
		}
	}
	reveal := res.Reveal
	if finished, ok := g.payload(goofspiel.MatchFinished); ok && reveal == "" {
		reveal, _ = finished["reveal"].(string)
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
// match_finished carries the prize order or its seed under any of
// secretOrderKeys, whatever the frame's layout: in shuffled mode the order
// is secret until it is revealed.
func (g *gwRun) orderKeptSecret() error {
	for _, f := range append(slices.Clone(g.turns), g.events...) {
		if f.Type == goofspiel.MatchFinished {
			continue
		}
		var doc any
		if json.Unmarshal(f.raw, &doc) != nil {
			continue
		}
		if k := keyAmong(doc, secretOrderKeys); k != "" {
			return verdict.Failf("PYYOL-GOOF-SHUFFLED", "the prize order secret until the reveal", "field "+k,
				"a %s frame before the match ended: %s", f.T, clipRaw(f.raw))
		}
	}
	return nil
}

// keyAmong returns the first key of names found anywhere in doc, or "".
func keyAmong(doc any, names map[string]bool) string {
	switch v := doc.(type) {
	case map[string]any:
		for k, x := range v {
			if names[k] {
				return k
			}
			if found := keyAmong(x, names); found != "" {
				return found
			}
		}
	case []any:
		for _, x := range v {
			if found := keyAmong(x, names); found != "" {
				return found
			}
		}
	}
	return ""
}

// clipRaw shows at most 300 bytes of a frame in a failure.
func clipRaw(raw json.RawMessage) string {
	if len(raw) > 300 {
		return string(raw[:300]) + "…"
	}
	return string(raw)
}
