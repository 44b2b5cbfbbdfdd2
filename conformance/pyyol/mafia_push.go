package pyyol

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// requireMafia skips unless the agent's handshake lists mafia: an agent
// need not play every game.
func (p *pushRun) requireMafia(ctx context.Context) error {
	if err := p.post(ctx, "/handshake", handshakeBody()); err != nil {
		return err
	}
	var hs struct {
		SupportedGames []string `json:"supportedGames"`
	}
	if p.Last.Status != 200 || json.Unmarshal(p.Last.Body, &hs) != nil || !slices.Contains(hs.SupportedGames, "mafia") {
		return verdict.Skipf("the agent does not list mafia in its handshake")
	}
	return nil
}
