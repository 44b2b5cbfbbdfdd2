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

func (g *gwRun) eventTypes() error {
	known := []string{goofspiel.MatchCreated, goofspiel.PrizeRevealed, goofspiel.CardSealed, goofspiel.RoundRevealed, goofspiel.MatchFinished}
	for _, e := range g.events {
		if !slices.Contains(known, e.Type) {
			return verdict.Failf("PYYOL-GOOF-EVENTS", strings.Join(known, ", "), e.Type, "event type")
		}
	}
	return nil
}

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
		return verdict.Failf("PYYOL-REF-COMMIT-SCHEME", commitment, hex.EncodeToString(sum[:]), "sha256 of the revealed seed")
	}
	order := goofspiel.PrizeOrder(res.Rules, seed)
	for _, r := range res.History {
		if r.Round < len(order) && order[r.Round] != r.Prize {
			return verdict.Failf("PYYOL-GOOF-SHUFFLED", order, describe(res.History), "the prizes the reveal commits to")
		}
	}
	return nil
}
