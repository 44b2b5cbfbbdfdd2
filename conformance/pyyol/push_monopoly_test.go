package pyyol

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// inProcess pushes straight into a handler, unsigned (the agent under
// test skips verification): the referee's logic without the network.
type inProcess struct {
	h     http.Handler
	calls map[string]int
}

func (p *inProcess) Do(_ context.Context, req driver.Request) (*driver.Response, error) {
	body, _ := json.Marshal(req.JSON)
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, httptest.NewRequest(req.Method, agent.BasePath+req.Path, bytes.NewReader(body)))
	p.calls[req.Path]++
	return &driver.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}, nil
}

// TestMonopolyRefereePlaysWholeMatches: against the reference agent the
// referee plays matches to game_over at several seeds, seats and table
// sizes, pushing every event and a game-end, with no warning; every view
// and event it pushes fits spec/pyyol/frames.
func TestMonopolyRefereePlaysWholeMatches(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 6; seed++ {
		push := &inProcess{h: agent.New(agent.Options{Monopoly: true, Flaw: agent.SkipsSignature}), calls: map[string]int{}}
		players := 2 + int(seed)%7
		ref := &MonopolyReferee{Referee: Referee{Push: push, Seed: seed, Note: func(err error) { t.Errorf("seed %d: warning %v", seed, err) }},
			Seat: int(seed) % players, Players: players}
		winners, err := ref.Play(context.Background())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Logf("seed %d: %d players, winners %v, calls %v", seed, players, winners, push.calls)
		if len(winners) == 0 || push.calls["/game-end"] != 1 || push.calls["/turn"] != len(ref.Turns) || len(ref.Turns) < 10 {
			t.Errorf("seed %d: winners %v, calls %v, %d turns", seed, winners, push.calls, len(ref.Turns))
		}
		for _, body := range ref.Sent {
			raw, _ := json.Marshal(body)
			var err error
			switch {
			case body["view"] != nil:
				err = checkFrameOf(withT(raw, "turn", "x"), "turn", "monopoly")
			case body["seq"] != nil:
				err = checkFrameOf(withT(raw, "event", ""), "event", "monopoly")
			}
			if err != nil {
				t.Fatalf("seed %d: a pushed body does not fit its schema: %v", seed, err)
			}
		}
	}
}

// withT adds a frame's t (and id) to a pushed body, so the frame schemas
// judge it.
func withT(raw []byte, t, id string) json.RawMessage {
	var m map[string]any
	json.Unmarshal(raw, &m)
	m["t"] = t
	if id != "" {
		m["id"] = id
	}
	out, _ := json.Marshal(m)
	return out
}

// TestMonopolyMoveOfNamesTheRule: the referee's judgement of one answer.
func TestMonopolyMoveOfNamesTheRule(t *testing.T) {
	t.Parallel()
	g, _ := monopoly.New(monopoly.DefaultRules(), 5)
	v := g.View(g.Actor())
	v.LegalActions = []string{"bid", "pass", "propose_trade", "mortgage"}
	for body, rule := range map[string]string{
		`{"action":"roll"}`:                     "PYYOL-MONO-MOVE-ACTION",
		`"roll"`:                                "PYYOL-MONO-MOVE-ACTION",
		`{"action":"bid","amount":-3}`:          "PYYOL-MONO-MOVE-AMOUNT",
		`{"action":"mortgage","property":"1"}`:  "PYYOL-MONO-MOVE-PROPERTY",
		`{"action":"propose_trade","trade":{}}`: "PYYOL-MONO-MOVE-TRADE",
		`{"action":"propose_trade","trade":{"proposer":0,"target":0,"give_props":[],"give_cash":0,"want_props":[],"want_cash":1}}`: "PYYOL-MONO-MOVE-TRADE",
		`{"action":"propose_trade","trade":{"proposer":0,"target":9,"give_props":[],"give_cash":0,"want_props":[],"want_cash":1}}`: "PYYOL-MONO-MOVE-TRADE",
		`{"action":"pass"}`:                          "",
		`{"action":"bid","amount":5,"note":"extra"}`: "",
	} {
		_, err := monopolyMoveOf([]byte(body), v, 0, func(error) {})
		if got := ruleOfErr(err); got != rule {
			t.Errorf("%s: rule %q, want %q (%v)", body, got, rule, err)
		}
	}
}
