package agent_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// FuzzPushedBodies: no correctly signed body pushed to any of the agent's
// routes makes it panic or answer a status the docs do not name for it
// (200, 400 and 413 for a body it cannot read, 401 never for a signed
// one, 500 handler_error, 501 no_turn_handler), and every answer is JSON.
func FuzzPushedBodies(f *testing.F) {
	a := agent.New(agent.Options{Now: func() time.Time { return now }, Mafia: true, Monopoly: true})
	for i, body := range []string{
		`{"protocol":"1.0","game":"goofspiel","match_id":"m","round":0,"current_prize":5,"legal_actions":[1,2,3],"your_hand":[1,2,3]}`,
		`{"protocol":"1.0","game":"goofspiel","view":{"round":0,"current_prize":5,"legal_actions":[1,2,3],"your_hand":[1,2,3]}}`,
		`{"protocol":"1.0","game":"mafia","phase":"voting","legal":["vote"],"alive":[0,1,2]}`,
		`{"protocol":"1.0","game":"monopoly","phase":"turn","legal_actions":["roll"]}`,
		`{"protocol":"1.0","match_id":"m","game":"goofspiel","seq":1,"type":"round_revealed","payload":{}}`,
		`{}`, `[]`, `null`, "\xff", `{"game":"chess"}`, `{"protocol":"1.0","protocol":"2.0"}`,
	} {
		f.Add(uint8(i), []byte(body))
	}
	routes := []string{"/turn", "/initialize", "/event", "/game-end", "/handshake", "/play"}
	allowed := map[int]bool{200: true, 400: true, 413: true, 500: true, 501: true}
	nonce := 0
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		route := routes[int(which)%len(routes)]
		nonce++
		rec := push(a, route, string(body), now, "fuzz-"+strconv.Itoa(nonce), agent.DevSecret)
		if !allowed[rec.Code] {
			t.Fatalf("POST %s %q answered %d: %s", route, body, rec.Code, rec.Body.String())
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("POST %s %q answered a body that is no JSON: %q", route, body, rec.Body.String())
		}
	})
}
