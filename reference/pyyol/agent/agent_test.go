package agent_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

var now = time.Date(2026, 7, 6, 12, 0, 0, 0, time.UTC)

func push(a http.Handler, path, body string, at time.Time, nonce, secret string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, agent.BasePath+path, strings.NewReader(body))
	if secret != "" {
		ts := pushsign.Timestamp(at)
		req.Header.Set(pushsign.TimestampHeader, ts)
		req.Header.Set(pushsign.NonceHeader, nonce)
		req.Header.Set(pushsign.SignatureHeader, pushsign.Header([]byte(secret), ts, nonce, "POST", agent.BasePath+path, []byte(body)))
	}
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, req)
	return rec
}

func TestAgentVerifiesBeforeAnswering(t *testing.T) {
	a := agent.New(agent.Options{Now: func() time.Time { return now }})
	turn := `{"protocol":"1.0","game":"goofspiel","view":{"round":0,"current_prize":5,"legal_actions":[1,2,3,4,5,6,7,8,9,10,11,12,13],"your_hand":[1,2,3,4,5,6,7,8,9,10,11,12,13]}}`
	rec := push(a, "/turn", turn, now, "n1", agent.DevSecret)
	assert.Equal(t, 200, rec.Code)
	assert.JSONEq(t, `{"round":0,"card":5}`, rec.Body.String())
	for _, c := range []struct {
		rec    *httptest.ResponseRecorder
		reason string
	}{
		{push(a, "/turn", turn, now, "n1", agent.DevSecret), "replayed_nonce"},
		{push(a, "/turn", turn, now, "n2", "other"), "bad_signature"},
		{push(a, "/turn", turn, now.Add(-10*time.Minute), "n3", agent.DevSecret), "stale_timestamp"},
		{push(a, "/turn", turn, now, "", ""), "missing_signature"},
	} {
		assert.Equal(t, 401, c.rec.Code, c.reason)
		assert.JSONEq(t, `{"error":"unauthorized","reason":"`+c.reason+`"}`, c.rec.Body.String())
	}
	rec = push(a, "/turn", strings.Replace(turn, "goofspiel", "mafia", 1), now, "n4", agent.DevSecret)
	assert.Equal(t, 501, rec.Code)
	health := httptest.NewRecorder()
	a.ServeHTTP(health, httptest.NewRequest(http.MethodGet, agent.BasePath+"/health", nil))
	assert.JSONEq(t, `{"status":"healthy","agent":"conformance-reference","version":"conformance-reference-1.0"}`, health.Body.String())
}

// TestAgentReadsBothTurnLayouts: the view at the top level of the body (the
// platform's and the SDK's layout) and wrapped in "view" (the kit's
// earlier one) get the same move; the game may sit in either place.
func TestAgentReadsBothTurnLayouts(t *testing.T) {
	a := agent.New(agent.Options{Now: func() time.Time { return now }, Mafia: true})
	view := `"round":2,"current_prize":9,"legal_actions":[3,9,12],"your_hand":[3,9,12]`
	for i, body := range []string{
		`{"protocol":"1.0","match_id":"m","game":"goofspiel",` + view + `}`,
		`{"protocol":"1.0","match_id":"m","game":"goofspiel","view":{` + view + `}}`,
		`{"protocol":"1.0","match_id":"m","view":{"game":"goofspiel",` + view + `}}`,
	} {
		rec := push(a, "/turn", body, now, "l"+string(rune('a'+i)), agent.DevSecret)
		assert.Equal(t, 200, rec.Code, body)
		assert.JSONEq(t, `{"round":2,"card":9}`, rec.Body.String(), body)
	}
	mafiaTurn := `{"protocol":"1.0","match_id":"m","game":"mafia","your_seat":0,"your_role":"Villager","day":1,"phase":"day_vote",` +
		`"alive":{"0":true,"1":true},"legal":["vote"],"public":[],"private":[]}`
	rec := push(a, "/turn", mafiaTurn, now, "lm", agent.DevSecret)
	assert.Equal(t, 200, rec.Code)
	assert.Contains(t, rec.Body.String(), `"action":"vote"`)
}

// TestAgentRoutesLikeTheSDK: routes are told apart by their last segment;
// any other POST is a turn, a GET other than /health is 405, a game
// without a handler is 501 naming the game, a view it cannot decide on is
// the SDK's 500 handler_error.
func TestAgentRoutesLikeTheSDK(t *testing.T) {
	a := agent.New(agent.Options{Now: func() time.Time { return now }})
	turn := `{"protocol":"1.0","match_id":"m","game":"goofspiel","round":0,"current_prize":4,"legal_actions":[4],"your_hand":[4]}`
	rec := push(a, "/play", turn, now, "r1", agent.DevSecret)
	assert.Equal(t, 200, rec.Code)
	assert.JSONEq(t, `{"round":0,"card":4}`, rec.Body.String())
	rec = push(a, "/turn", strings.Replace(turn, "goofspiel", "chess", 1), now, "r2", agent.DevSecret)
	assert.Equal(t, 501, rec.Code)
	assert.JSONEq(t, `{"error":"no_turn_handler","game":"chess"}`, rec.Body.String())
	rec = push(a, "/turn", `{"protocol":"1.0","game":"goofspiel","round":0}`, now, "r3", agent.DevSecret)
	assert.Equal(t, 500, rec.Code)
	assert.Contains(t, rec.Body.String(), `"handler_error"`)
	rec = push(a, "/initialize", `{"protocol":"1.0","match_id":"m","game":"goofspiel","seat":0,"players":2}`, now, "r4", agent.DevSecret)
	assert.JSONEq(t, `{"ready":true,"display_name":"conformance-reference"}`, rec.Body.String())
	rec = push(a, "/event", `{"protocol":"1.0","match_id":"m","game":"goofspiel","seq":1,"type":"prize_revealed"}`, now, "r5", agent.DevSecret)
	assert.JSONEq(t, `{"ok":true}`, rec.Body.String())
	get := httptest.NewRecorder()
	a.ServeHTTP(get, httptest.NewRequest(http.MethodGet, agent.BasePath+"/turn", nil))
	assert.Equal(t, 405, get.Code)
	outside := httptest.NewRecorder()
	a.ServeHTTP(outside, httptest.NewRequest(http.MethodGet, "/elsewhere/health", nil))
	assert.Equal(t, 404, outside.Code)
}

// TestAgentPlaysMonopolyWhenAsked: with Monopoly on, the agent lists
// monopoly and answers a Monopoly view with the docs' example pick; off,
// a Monopoly turn has no handler.
func TestAgentPlaysMonopolyWhenAsked(t *testing.T) {
	turn := `{"protocol":"1.0","match_id":"m","game":"monopoly","view":{"seat":0,"phase":"acquire","legal_actions":["buy","decline"],"state":{"players":[{},{}],"holdings":[{}]}}}`
	on := agent.New(agent.Options{Now: func() time.Time { return now }, Monopoly: true})
	rec := push(on, "/turn", turn, now, "m1", agent.DevSecret)
	assert.Equal(t, 200, rec.Code)
	assert.JSONEq(t, `{"action":"buy"}`, rec.Body.String())
	rec = push(on, "/turn", strings.Replace(turn, `["buy","decline"]`, `["decline"]`, 1), now, "m2", agent.DevSecret)
	assert.JSONEq(t, `{"action":"decline"}`, rec.Body.String())
	rec = push(on, "/handshake", `{"protocol":"1.0"}`, now, "m3", agent.DevSecret)
	assert.Contains(t, rec.Body.String(), `"monopoly"`)
	off := agent.New(agent.Options{Now: func() time.Time { return now }})
	assert.Equal(t, 501, push(off, "/turn", turn, now, "m4", agent.DevSecret).Code)
}

// TestABodyOverTheLimitIsRefusedBeforeItsSignature: a body past MaxBody
// is 413 whatever its signature, even one signed over its first MaxBody
// bytes, so the signature always covers every byte the agent reads; a
// body at the limit is read whole and verified.
func TestABodyOverTheLimitIsRefusedBeforeItsSignature(t *testing.T) {
	a := agent.New(agent.Options{Now: func() time.Time { return now }})
	view := `{"protocol":"1.0","game":"goofspiel","round":0,"current_prize":5,"legal_actions":[1,2,3],"your_hand":[1,2,3],"pad":"`
	head := view + strings.Repeat("x", agent.MaxBody-len(view))
	big := head + strings.Repeat("y", agent.MaxBody) + `"}`
	ts := pushsign.Timestamp(now)
	req := httptest.NewRequest(http.MethodPost, agent.BasePath+"/turn", strings.NewReader(big))
	req.Header.Set(pushsign.TimestampHeader, ts)
	req.Header.Set(pushsign.NonceHeader, "n-big")
	req.Header.Set(pushsign.SignatureHeader, pushsign.Header([]byte(agent.DevSecret), ts, "n-big", "POST", agent.BasePath+"/turn", []byte(head)))
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code, rec.Body.String())
	assert.Contains(t, rec.Body.String(), "payload_too_large")

	atLimit := `{"protocol":"1.0","game":"goofspiel","round":0,"current_prize":5,"legal_actions":[1,2,3],"your_hand":[1,2,3],"pad":"`
	atLimit += strings.Repeat("z", agent.MaxBody-len(atLimit)-2) + `"}`
	assert.Equal(t, 200, push(a, "/turn", atLimit, now, "n-limit", agent.DevSecret).Code, "a body of exactly MaxBody bytes is read whole")
}

// TestEveryRouteRefusesAnOversizedBodyBeforeItsSignature: on every route
// the agent signs (and the catch-all turn route) a body one byte over
// MaxBody is 413 payload_too_large, unsigned or signed over its whole
// bytes alike, never the 401 of a signature check or a 200; a body at the
// limit signed whole is read and verified.
func TestEveryRouteRefusesAnOversizedBodyBeforeItsSignature(t *testing.T) {
	a := agent.New(agent.Options{Now: func() time.Time { return now }})
	view := `{"protocol":"1.0","game":"goofspiel","round":0,"current_prize":5,"legal_actions":[1,2,3],"your_hand":[1,2,3],"pad":"`
	pad := func(size int) string { return view + strings.Repeat("x", size-len(view)-2) + `"}` }
	for _, route := range []string{"/turn", "/handshake", "/initialize", "/event", "/game-end", "/elsewhere"} {
		over := pad(agent.MaxBody + 1)
		unsigned := httptest.NewRequest(http.MethodPost, agent.BasePath+route, strings.NewReader(over))
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, unsigned)
		assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code, "%s unsigned: %s", route, rec.Body.String())
		rec = push(a, route, over, now, "over"+route, agent.DevSecret)
		assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code, "%s signed whole: %s", route, rec.Body.String())
		assert.Contains(t, rec.Body.String(), "payload_too_large", route)
		rec = push(a, route, pad(agent.MaxBody), now, "limit"+route, agent.DevSecret)
		assert.Equal(t, http.StatusOK, rec.Code, "%s at the limit: %s", route, rec.Body.String())
	}
}
