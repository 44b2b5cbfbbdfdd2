package pyyol_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// pushedView is the part of a pushed Monopoly view a broken agent reads.
type pushedView struct {
	Seat         int      `json:"seat"`
	Phase        string   `json:"phase"`
	LegalActions []string `json:"legal_actions"`
}

// gameAnswers wraps the reference agent (which plays every game): a
// /turn of game is answered with what answer returns for its view (an
// int is a bare status), or by the agent itself when answer returns nil.
func gameAnswers(game string, answer func(view json.RawMessage) any) http.Handler {
	h := agent.New(agent.Options{Monopoly: true, Mafia: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		// The reference agent's own reading of the body: the view at the
		// top level, or wrapped in "view".
		got, view, err := agent.TurnView(body)
		if err != nil || got != game || !bytes.HasSuffix([]byte(r.URL.Path), []byte("/turn")) {
			h.ServeHTTP(w, r)
			return
		}
		mv := answer(view)
		if mv == nil {
			h.ServeHTTP(w, r)
			return
		}
		if status, ok := mv.(int); ok {
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(mv)
	})
}

// monopolyAnswers is gameAnswers for Monopoly views.
func monopolyAnswers(answer func(v pushedView) any) http.Handler {
	return gameAnswers("monopoly", func(raw json.RawMessage) any {
		var v pushedView
		json.Unmarshal(raw, &v)
		return answer(v)
	})
}

// refusesGame answers 500 to the requests of route whose body is of a
// match of game (its game field, or an event type only that game has),
// and leaves the rest to the reference agent: the other games' checks
// still pass, so only that game's match can catch it.
func refusesGame(game, route string) http.Handler {
	only := map[string][]string{"monopoly": {"dice_rolled", "turn_started"}, "mafia": {"phase", "moderator"}}[game]
	h := agent.New(agent.Options{Monopoly: true, Mafia: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct{ Game, Type string }
		json.Unmarshal(body, &req)
		ofGame := req.Game == game || slices.Contains(only, req.Type)
		if bytes.HasSuffix([]byte(r.URL.Path), []byte(route)) && ofGame {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// when answers move in views listing action, and leaves the rest to the
// reference agent.
func when(action string, move map[string]any) func(v pushedView) any {
	return func(v pushedView) any {
		if slices.Contains(v.LegalActions, action) {
			return move
		}
		return nil
	}
}

// brokenMonopolyAgents lists, for every MUST rule the push side checks
// on an agent's Monopoly answers, an agent endpoint that breaks it.
func brokenMonopolyAgents() []struct {
	rule  string
	agent http.Handler
} {
	return []struct {
		rule  string
		agent http.Handler
	}{
		// A Monopoly turn answered 500 (Goofspiel and Mafia turns still 200),
		// and the Monopoly match's lifecycle notifications refused.
		{"PYYOL-PUSH-TURN", monopolyAnswers(func(pushedView) any { return http.StatusInternalServerError })},
		{"PYYOL-PUSH-INITIALIZE", refusesGame("monopoly", "/initialize")},
		{"PYYOL-PUSH-EVENT-ACK", refusesGame("monopoly", "/event")},
		{"PYYOL-PUSH-GAME-END-ACK", refusesGame("monopoly", "/game-end")},
		// An action outside legal_actions, then one outside the Actions table.
		{"PYYOL-MONO-MOVE-ACTION", monopolyAnswers(when("roll", map[string]any{"action": "end_turn"}))},
		{"PYYOL-MONO-MOVE-ACTION", monopolyAnswers(func(pushedView) any { return map[string]any{"action": "fly"} })},
		// A mortgage naming no square, and one naming a square off the board.
		{"PYYOL-MONO-MOVE-PROPERTY", monopolyAnswers(when("mortgage", map[string]any{"action": "mortgage"}))},
		{"PYYOL-MONO-MOVE-PROPERTY", monopolyAnswers(when("mortgage", map[string]any{"action": "mortgage", "property": 40}))},
		// Declines every property, then bids without a raise / a raise of 0.
		{"PYYOL-MONO-MOVE-AMOUNT", monopolyAnswers(func(v pushedView) any {
			if slices.Contains(v.LegalActions, "decline") {
				return map[string]any{"action": "decline"}
			}
			return when("bid", map[string]any{"action": "bid"})(v)
		})},
		{"PYYOL-MONO-MOVE-AMOUNT", monopolyAnswers(func(v pushedView) any {
			if slices.Contains(v.LegalActions, "decline") {
				return map[string]any{"action": "decline"}
			}
			return when("bid", map[string]any{"action": "bid", "amount": 0})(v)
		})},
		// A trade without its documented fields, and one proposed in
		// another seat's name.
		{"PYYOL-MONO-MOVE-TRADE", monopolyAnswers(when("skip_trade", map[string]any{"action": "propose_trade", "trade": map[string]any{"target": 1}}))},
		{"PYYOL-MONO-MOVE-TRADE", monopolyAnswers(func(v pushedView) any {
			return when("skip_trade", map[string]any{"action": "propose_trade", "trade": map[string]any{"proposer": v.Seat + 1, "target": v.Seat,
				"give_props": []int{}, "give_cash": 1, "want_props": []int{}, "want_cash": 0}})(v)
		})},
	}
}

// TestBrokenMonopolyAgentsFailTheirRule: each broken agent endpoint,
// pushed a Monopoly match live over loopback, fails naming its rule.
func TestBrokenMonopolyAgentsFailTheirRule(t *testing.T) {
	t.Parallel()
	catchBrokenAgents(t, brokenMonopolyAgents())
}

// TestMonopolyAgentEndpointLive: the reference agent playing Monopoly
// passes the push side live; one whose listed, well-formed move the
// reference rules refuse (a mortgage on GO) only warns under
// PYYOL-MONO-REF-PUSH-REFEREE; one that does not list monopoly is
// skipped, not judged (exit 2: nothing was tested).
func TestMonopolyAgentEndpointLive(t *testing.T) {
	t.Parallel()
	const rule = "PYYOL-MONO-MOVE-ACTION"
	for _, c := range []struct {
		name   string
		agent  http.Handler
		status verdict.Status
	}{
		{"healthy", agent.New(agent.Options{Monopoly: true}), verdict.Pass},
		{"refused by the reference rules", monopolyAnswers(when("mortgage", map[string]any{"action": "mortgage", "property": 0})), verdict.Warn},
		{"no monopoly", agent.New(agent.Options{}), verdict.Skip},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.agent)
			defer srv.Close()
			rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", rule, pushSettings)
			want := 0
			if c.status == verdict.Skip {
				want = 2 // nothing was tested
			}
			if rep.ExitCode() != want || len(rep.Results) == 0 {
				t.Fatalf("exit %d: %v", rep.ExitCode(), failedRules(rep))
			}
			for _, r := range rep.Results {
				if r.Status != c.status {
					t.Errorf("%s: %s (%s), want %s", r.Name, r.Status, r.Message, c.status)
				}
			}
		})
	}
}
