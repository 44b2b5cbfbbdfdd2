package agentaudit

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// mafiaLegal reads a Mafia turn's legal actions.
func mafiaLegal(t Turn) []string {
	var v struct {
		Legal []string `json:"legal"`
	}
	_ = json.Unmarshal(t.View, &v)
	return v.Legal
}

// monopolyLegal reads a Monopoly turn's legal actions.
func monopolyLegal(t Turn) []string {
	var v struct {
		LegalActions []string `json:"legal_actions"`
	}
	_ = json.Unmarshal(t.View, &v)
	return v.LegalActions
}

// monopolyPractice is a short two-player Monopoly practice match.
var monopolyPractice = map[string]any{"players": 2, "turn_cap": 1}

// monopolyOnce registers for Monopoly and answers its first turn with
// move(legal), then stops.
func monopolyOnce(move func(legal []string) map[string]any) func(ctx context.Context, a *PyyolAgent) error {
	return onFirstTurn([]string{"monopoly"}, monopolyPractice, func(ctx context.Context, a *PyyolAgent, t Turn) (bool, error) {
		return true, a.Move(ctx, t.ID, move(monopolyLegal(t)))
	})
}

func init() {
	const p = "pyyol-gateway"
	register(p, "plays by the rules", pyyolScript(PyyolPolite))
	register(p, "sends a response before it registers", pyyolScript(func(ctx context.Context, a *PyyolAgent) error {
		if err := a.Send(ctx, map[string]any{"t": "response", "id": "early"}); err != nil {
			return err
		}
		return a.Register(ctx, a.Token, []string{"goofspiel"}, nil)
	}))
	register(p, "answers with an id it was never sent", pyyolScript(goofOnce(func(ctx context.Context, a *PyyolAgent, t Turn) error {
		v := t.Goof()
		return a.Bid(ctx, "turn_never_sent", v.Round, v.LegalActions[0])
	})))
	register(p, "sends a response without an id, as if answering an event", pyyolScript(goofOnce(func(ctx context.Context, a *PyyolAgent, t Turn) error {
		return a.Send(ctx, map[string]any{"t": "response", "move": map[string]int{"round": t.Goof().Round, "card": t.Goof().LegalActions[0]}})
	})))
	register(p, "answers a turn after the gateway's timeout", pyyolScript(goofOnce(func(ctx context.Context, a *PyyolAgent, t Turn) error {
		time.Sleep(2 * ScenarioClocks().TurnTimeout) // the turn is settled by then
		return a.BidLowest(ctx, t)
	})))
	register(p, "never pings for longer than the audit allows", pyyolScript(neverPings))
	// The drop ends the play; the agent never comes back. Settle caps the
	// wait for the match to end without it, plus the reconnect grace.
	register(p, "gives up when the gateway drops its socket in a match", Script{Faults: []string{"dropped_socket"}, Settle: 10 * time.Second,
		Play: func(ctx context.Context, base string) error {
			a, err := MintPyyolAgent(ctx, base)
			if err != nil {
				return err
			}
			defer a.Close()
			if err := a.Register(ctx, a.Token, []string{"monopoly"}, monopolyPractice); err != nil {
				return err
			}
			_ = a.Play(ctx, func(t Turn) (bool, error) { return false, nil })
			return nil
		}})
	register(p, "registers with a token it also stored as its manifest's endpoint secret", pyyolScript(func(ctx context.Context, a *PyyolAgent) error {
		// The gateway resolves only agent keys, so the secret it can be
		// shown is one the agent also stored as a manifest's endpoint secret.
		if err := publishWithSecret(ctx, a, a.Token); err != nil {
			return err
		}
		return a.Register(ctx, a.Token, []string{"goofspiel"}, nil)
	}))
	register(p, "bids for another round than the view's", pyyolScript(goofOnce(func(ctx context.Context, a *PyyolAgent, t Turn) error {
		v := t.Goof()
		return a.Bid(ctx, t.ID, v.Round+5, v.LegalActions[0])
	})))
	register(p, "bids a card it does not hold", pyyolScript(goofOnce(func(ctx context.Context, a *PyyolAgent, t Turn) error {
		return a.Bid(ctx, t.ID, t.Goof().Round, 99)
	})))
	register(p, "bids twice on one turn", pyyolScript(goofOnce(func(ctx context.Context, a *PyyolAgent, t Turn) error {
		if err := a.BidLowest(ctx, t); err != nil {
			return err
		}
		return a.BidLowest(ctx, t)
	})))
	register(p, "plays a Mafia action outside legal", pyyolScript(onFirstTurn([]string{"mafia"}, nil, func(ctx context.Context, a *PyyolAgent, t Turn) (bool, error) {
		return true, a.Move(ctx, t.ID, map[string]any{"action": "fly"})
	})))
	register(p, "votes in Mafia without a target", pyyolScript(onFirstTurn([]string{"mafia"}, nil, func(ctx context.Context, a *PyyolAgent, t Turn) (bool, error) {
		legal := mafiaLegal(t)
		for _, act := range []string{"vote", "night_kill", "investigate", "protect", "profile"} {
			if slices.Contains(legal, act) {
				return true, a.Move(ctx, t.ID, map[string]any{"action": act})
			}
		}
		if len(legal) == 0 {
			return false, nil
		}
		return false, a.Move(ctx, t.ID, map[string]any{"action": legal[0]})
	})))
	register(p, "plays a Monopoly action outside legal_actions", pyyolScript(monopolyOnce(func([]string) map[string]any {
		return map[string]any{"action": "fly"}
	})))
	register(p, "builds in Monopoly without naming a property", pyyolScript(monopolyOnce(func([]string) map[string]any {
		return map[string]any{"action": "build"}
	})))
	register(p, "sends a Monopoly trade with an action other than propose_trade", pyyolScript(monopolyOnce(func(legal []string) map[string]any {
		return map[string]any{"action": firstOr(legal, "end_turn"), "trade": map[string]any{"to": 1, "give": map[string]any{"cash": 1}}}
	})))
	register(p, "names a Monopoly phase as its action", pyyolScript(monopolyOnce(func([]string) map[string]any {
		return map[string]any{"action": "auction"}
	})))
}

// neverPings registers for Goofspiel and plays it slowly but in time,
// never pinging, until it has been silent for longer than ScenarioClocks'
// heartbeat gap; the response it then sends is the frame the audit names
// under PYYOL-AGENT-HEARTBEAT.
func neverPings(ctx context.Context, a *PyyolAgent) error {
	if err := a.Register(ctx, a.Token, []string{"goofspiel"}, nil); err != nil {
		return err
	}
	clocks := ScenarioClocks()
	started := time.Now() // the audit's silence began at register, earlier still
	return a.Play(ctx, func(t Turn) (bool, error) {
		if time.Since(started) > clocks.HeartbeatGap+clocks.TurnTimeout/2 {
			return true, a.BidLowest(ctx, t) // this frame comes after the gap
		}
		time.Sleep(clocks.TurnTimeout / 2) // slow but in time: the match lasts past the gap
		return false, a.BidLowest(ctx, t)
	})
}

// firstOr is list's first element, or fallback.
func firstOr(list []string, fallback string) string {
	if len(list) == 0 || list[0] == "propose_trade" || list[0] == "counter_trade" {
		return fallback
	}
	return list[0]
}

// publishWithSecret submits the docs' example manifest for the agent and
// stores secret as its endpoint secret.
func publishWithSecret(ctx context.Context, a *PyyolAgent, secret string) error {
	ans, err := expect(http.StatusCreated, "submit a manifest")(Do(ctx, Call{Method: http.MethodPost, URL: a.Base + "/agents/" + a.AgentID + "/manifest", Key: a.Token,
		Body: JSON(exampleManifest())}))
	if err != nil {
		return err
	}
	var m struct {
		ManifestID string `json:"manifest_id"`
	}
	if err := ans.Decode(&m); err != nil {
		return err
	}
	_, err = expect(http.StatusOK, "store the endpoint secret")(Do(ctx, Call{Method: http.MethodPut,
		URL: a.Base + "/agents/" + a.AgentID + "/manifest/" + m.ManifestID + "/endpoint-secret", Key: a.Token, Body: JSON(map[string]string{"token": secret})}))
	return err
}

// exampleManifest is the docs' example manifest, its endpoint a
// placeholder the audit never calls.
func exampleManifest() map[string]any { return manifest.Example("https://agent.example/pyyol") }
