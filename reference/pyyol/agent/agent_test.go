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
	assert.JSONEq(t, `{"status":"healthy"}`, health.Body.String())
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
