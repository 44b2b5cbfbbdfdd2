package pyyol

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
)

// A hand-made session: a well-behaved platform's verify calls and a
// two-round match, each request signed as protocol.md says. Each case
// breaks one thing and wants the judge of its rule to fail naming it.

const testSecret = "kit_test_secret"

var testNonce int

// signedSeen is a POST to route, signed, with protocol 1.0 in the body.
func signedSeen(route string, body map[string]any) *seen {
	body["protocol"] = "1.0"
	raw, _ := json.Marshal(body)
	testNonce++
	nonce := fmt.Sprintf("req_test_%d", testNonce)
	ts := pushsign.Timestamp(time.Now())
	h := http.Header{}
	h.Set(pushsign.TimestampHeader, ts)
	h.Set(pushsign.NonceHeader, nonce)
	h.Set(pushsign.SignatureHeader, pushsign.Header([]byte(testSecret), ts, nonce, "POST", platformDir+route, raw))
	h.Set("Authorization", "Bearer "+testSecret)
	return &seen{method: "POST", path: platformDir + route, header: h, body: raw, at: time.Now(), round: -1}
}

// goodSession is the well-behaved platform's requests.
func goodSession() *platSession {
	ep := newPlatformEndpoint(platformTurnBudget)
	ep.log = []*seen{
		{method: "GET", path: platformDir + "/health", header: http.Header{}, at: time.Now(), round: -1},
		signedSeen("/handshake", map[string]any{"platform": "p"}),
		signedSeen("/initialize", map[string]any{"match_id": "m", "game": "goofspiel", "seat": 0, "players": 2}),
		signedSeen("/turn", map[string]any{"match_id": "m", "game": "goofspiel", "round": 0, "seat": 0, "legal_actions": []int{1, 2}}),
		signedSeen("/event", map[string]any{"match_id": "m", "seq": 1, "type": "round_revealed", "payload": map[string]any{}}),
		signedSeen("/game-end", map[string]any{"match_id": "m", "result": map[string]any{"winner": 0}}),
	}
	return &platSession{ep: ep, secret: testSecret, endpointURL: "http://x" + platformDir + "/turn"}
}

// judges maps each rule to its judge.
var judges = map[string]func(*platSession) error{
	"PYYOL-PLAT-SIGNED": (*platSession).judgeSigned, "PYYOL-PLAT-SIGN-PATH": (*platSession).judgeSignPath,
	"PYYOL-PLAT-HEADERS": (*platSession).judgeHeaders, "PYYOL-PLAT-BEARER": (*platSession).judgeBearer,
	"PYYOL-PLAT-TIMESTAMP": (*platSession).judgeTimestamp, "PYYOL-PLAT-NONCE": (*platSession).judgeNonce,
	"PYYOL-PUSH-PROTOCOL-FIELD": (*platSession).judgeProtocol, "PYYOL-PLAT-HEALTH": (*platSession).judgeHealth,
	"PYYOL-PLAT-SIBLINGS": (*platSession).judgeSiblings, "PYYOL-PLAT-INITIALIZE": (*platSession).judgeInitialize,
	"PYYOL-PLAT-TURN-BODY": (*platSession).judgeTurnBody, "PYYOL-PLAT-EVENT-BODY": (*platSession).judgeEventBody,
	"PYYOL-PLAT-GAME-END-BODY": (*platSession).judgeGameEnd,
}

func TestPlatformJudgesPassAGoodSession(t *testing.T) {
	s := goodSession()
	for rule, judge := range judges {
		if err := judge(s); err != nil {
			t.Errorf("%s: %v", rule, err)
		}
	}
}

// byRoute returns the session's request to route.
func byRoute(s *platSession, route string) *seen {
	for _, r := range s.ep.log {
		if r.path == platformDir+route {
			return r
		}
	}
	return nil
}

// resign signs r again after its body changed.
func resign(r *seen) {
	ts, nonce := r.header.Get(pushsign.TimestampHeader), r.header.Get(pushsign.NonceHeader)
	r.header.Set(pushsign.SignatureHeader, pushsign.Header([]byte(testSecret), ts, nonce, r.method, r.path, r.body))
}

func TestPlatformJudgesCatchEachBreak(t *testing.T) {
	cases := []struct {
		rule   string
		breaks func(s *platSession)
	}{
		{"PYYOL-PLAT-SIGNED", func(s *platSession) { byRoute(s, "/turn").body = []byte(`{"tampered":true}`) }},
		{"PYYOL-PLAT-HEADERS", func(s *platSession) { byRoute(s, "/event").header.Del(pushsign.TimestampHeader) }},
		{"PYYOL-PLAT-HEADERS", func(s *platSession) { byRoute(s, "/event").header.Set(pushsign.SignatureHeader, "sha256=abc") }},
		{"PYYOL-PLAT-BEARER", func(s *platSession) { byRoute(s, "/initialize").header.Del("Authorization") }},
		{"PYYOL-PLAT-TIMESTAMP", func(s *platSession) {
			r := byRoute(s, "/turn")
			r.header.Set(pushsign.TimestampHeader, time.Now().In(time.FixedZone("x", 3600)).Format(time.RFC3339))
			resign(r)
		}},
		{"PYYOL-PLAT-TIMESTAMP", func(s *platSession) {
			r := byRoute(s, "/turn")
			r.header.Set(pushsign.TimestampHeader, pushsign.Timestamp(time.Now().Add(-10*time.Minute)))
			resign(r)
		}},
		{"PYYOL-PLAT-NONCE", func(s *platSession) {
			r := byRoute(s, "/event")
			r.header.Set(pushsign.NonceHeader, byRoute(s, "/turn").header.Get(pushsign.NonceHeader))
			resign(r)
		}},
		{"PYYOL-PUSH-PROTOCOL-FIELD", func(s *platSession) {
			r := byRoute(s, "/game-end")
			r.body = []byte(`{"match_id":"m","result":{}}`)
			resign(r)
		}},
		{"PYYOL-PLAT-HEALTH", func(s *platSession) { byRoute(s, "/health").method = "HEAD" }},
		{"PYYOL-PLAT-HEALTH", func(s *platSession) { byRoute(s, "/health").header.Set(pushsign.SignatureHeader, "v1=00") }},
		{"PYYOL-PLAT-SIBLINGS", func(s *platSession) { byRoute(s, "/handshake").path = platformDir + "/turn/handshake" }},
		{"PYYOL-PLAT-INITIALIZE", func(s *platSession) {
			r := byRoute(s, "/initialize")
			r.body = []byte(`{"protocol":"1.0","match_id":"m","seat":0}`)
			resign(r)
		}},
		{"PYYOL-PLAT-TURN-BODY", func(s *platSession) {
			r := byRoute(s, "/turn")
			r.body = []byte(`{"protocol":"1.0","match_id":"m","round":0}`)
			resign(r)
		}},
		// round 2 (docs/detection.md): another route's path signed, the
		// game in another spelling, /initialize's seat and count off by one.
		{"PYYOL-PLAT-SIGN-PATH", func(s *platSession) {
			r := byRoute(s, "/event")
			ts, nonce := r.header.Get(pushsign.TimestampHeader), r.header.Get(pushsign.NonceHeader)
			r.header.Set(pushsign.SignatureHeader, pushsign.Header([]byte(testSecret), ts, nonce, r.method, platformDir+"/turn", r.body))
		}},
		{"PYYOL-PLAT-TURN-BODY", func(s *platSession) {
			r := byRoute(s, "/turn")
			r.body = []byte(`{"protocol":"1.0","match_id":"m","game":"Goofspiel","round":0,"seat":0,"legal_actions":[1,2]}`)
			resign(r)
		}},
		{"PYYOL-PLAT-INITIALIZE", func(s *platSession) {
			r := byRoute(s, "/initialize")
			r.body = []byte(`{"protocol":"1.0","match_id":"m","game":"goofspiel","seat":1,"players":2}`)
			resign(r)
		}},
		{"PYYOL-PLAT-INITIALIZE", func(s *platSession) {
			r := byRoute(s, "/initialize")
			r.body = []byte(`{"protocol":"1.0","match_id":"m","seat":0,"players":1}`)
			resign(r)
		}},
		{"PYYOL-PLAT-EVENT-BODY", func(s *platSession) {
			r := byRoute(s, "/event")
			r.body = []byte(`{"protocol":"1.0","seq":1}`)
			resign(r)
		}},
		{"PYYOL-PLAT-GAME-END-BODY", func(s *platSession) {
			r := byRoute(s, "/game-end")
			r.path = platformDir + "/elsewhere"
		}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			s := goodSession()
			c.breaks(s)
			err := judges[c.rule](s)
			var f *verdict.Failure
			if !errors.As(err, &f) || f.RuleID != c.rule {
				t.Errorf("want a failure of %s, got %v", c.rule, err)
			}
		})
	}
}
