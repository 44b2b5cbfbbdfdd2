package pyyol_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
)

// platformSlipsRound6 are the sixth round of push-client slips
// (docs/detection.md, "Pyyol platform, round 6"): /health signed like
// every other call, a clock one second past the window on the future
// side, the signing string joined by CRLF, the nonce under another
// header's name, /initialize's seat as a string and the Bearer carrying
// the secret's hex digest.
func platformSlipsRound6() []platformSlip {
	keys := &lastSecret{}
	return []platformSlip{
		{"/health is signed like every other call", "PYYOL-PLAT-HEALTH", keys.signHealth},
		{"the platform's clock is 301 s fast", "PYYOL-PLAT-TIMESTAMP", onSigned(func(c *pushCall) {
			c.resignAt(pushsign.Timestamp(time.Now().Add(301 * time.Second)))
		})},
		{"the signing string's lines are joined by CRLF", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			text := strings.ReplaceAll(canonical(c, c.req.URL.Path), "\n", "\r\n")
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, text, hex.EncodeToString))
		})},
		{"the nonce is sent as X-Request-Id", "PYYOL-PLAT-HEADERS", onSigned(func(c *pushCall) {
			c.req.Header.Set("X-Request-Id", c.req.Header.Get(pushsign.NonceHeader))
			c.req.Header.Del(pushsign.NonceHeader)
		})},
		{"/initialize's seat is a string", "PYYOL-PLAT-INITIALIZE", onCallsTo("/initialize", func(c *pushCall) {
			c.editJSON(func(m map[string]any) {
				if seat, ok := m["seat"].(float64); ok {
					m["seat"] = strconv.Itoa(int(seat))
				}
			})
		})},
		{"the Bearer carries the secret's SHA-256, not the secret", "PYYOL-PLAT-BEARER", onSigned(func(c *pushCall) {
			sum := sha256.Sum256([]byte(c.secret))
			c.req.Header.Set("Authorization", "Bearer "+hex.EncodeToString(sum[:]))
		})},
		{"legal_actions still holds the card played last round", "PYYOL-PLAT-TURN-BODY", onCallsTo("/turn", func(c *pushCall) {
			c.editJSON(onView(keepLastCard))
		})},
		{"the view's history lags one round behind", "PYYOL-PLAT-TURN-BODY", onCallsTo("/turn", func(c *pushCall) {
			c.editJSON(onView(func(v map[string]any) {
				if h := listOf(v["history"]); len(h) > 0 {
					v["history"] = h[:len(h)-1]
				}
			}))
		})},
		{"/game-end's result is built before the last round resolved", "PYYOL-PLAT-GAME-END-BODY", onCallsTo("/game-end", func(c *pushCall) {
			c.editJSON(onResult(oneRoundShort))
		})},
	}
}

// onView applies edit to a /turn body's view: the object that carries
// legal_actions, at the top level or under view.
func onView(edit func(map[string]any)) func(map[string]any) {
	return func(m map[string]any) {
		if v, ok := m["view"].(map[string]any); ok {
			m = v
		}
		if m["legal_actions"] != nil {
			edit(m)
		}
	}
}

// keepLastCard puts the card of the view's last history round back into
// legal_actions and your_hand: a hand cloned before the round removed it.
func keepLastCard(v map[string]any) {
	h := listOf(v["history"])
	if len(h) == 0 {
		return
	}
	last, _ := h[len(h)-1].(map[string]any)
	card, ok := last["your_card"].(float64)
	if !ok {
		return
	}
	for _, k := range []string{"legal_actions", "your_hand"} {
		if cards, ok := v[k].([]any); ok {
			v[k] = append(cards, card)
		}
	}
}

// oneRoundShort drops the last round of a result's history and takes its
// scores and winner from the round before: a result built as the last
// round began, not after it resolved.
func oneRoundShort(res map[string]any) {
	h := listOf(res["history"])
	if len(h) < 2 {
		return
	}
	res["history"] = h[:len(h)-1]
	prev, _ := h[len(h)-2].(map[string]any)
	scores := listOf(prev["scores"])
	if len(scores) != 2 {
		return
	}
	res["scores"] = scores
	a, _ := scores[0].(float64)
	b, _ := scores[1].(float64)
	switch {
	case a > b:
		res["winner"] = 0
	case b > a:
		res["winner"] = 1
	default:
		res["winner"] = -1
	}
}

// listOf is v as a JSON array, nil when it is none.
func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

// faithfulPlatformsRound6 take readings the docs leave open next to the
// round-6 slips: a clock 290 s fast (inside the ±300 s window on its
// future side) and views whose rounds are numbered from 1 (the base is
// not fixed), next to the view's history and the result's rows recounted.
func faithfulPlatformsRound6() []platformSlip {
	return []platformSlip{
		{"the platform's clock is 290 s fast", "", onSigned(func(c *pushCall) {
			c.resignAt(pushsign.Timestamp(time.Now().Add(290 * time.Second)))
		})},
		{"the views number their rounds from 1", "", onCallsTo("/turn", func(c *pushCall) {
			c.editJSON(onView(fromOne))
		})},
	}
}

// fromOne numbers a view's round and its history's rounds from 1, the
// /game-end result left numbered from 0: the docs fix neither base.
func fromOne(v map[string]any) {
	if r, ok := v["round"].(float64); ok {
		v["round"] = r + 1
	}
	for _, h := range listOf(v["history"]) {
		if row, ok := h.(map[string]any); ok {
			if r, ok := row["round"].(float64); ok {
				row["round"] = r + 1
			}
		}
	}
}

// lastSecret keeps the endpoint secret of the platform's last signed call,
// so a client that signs every request can sign /health with it too.
type lastSecret struct {
	mu     sync.Mutex
	secret string
}

// signHealth remembers the secret of each signed call and signs /health
// under it: one code path for every outbound call, the probe's exception
// forgotten.
func (l *lastSecret) signHealth(c *pushCall) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.signed() {
		l.secret = c.secret
		return
	}
	if c.route() != "/health" {
		return
	}
	ts, nonce := pushsign.Timestamp(time.Now()), "req_health_"+strconv.FormatInt(time.Now().UnixNano(), 36)
	mac := hmac.New(sha256.New, []byte(l.secret))
	mac.Write([]byte(pushsign.SigningString(ts, nonce, c.req.Method, c.req.URL.Path, c.body)))
	c.req.Header.Set(pushsign.TimestampHeader, ts)
	c.req.Header.Set(pushsign.NonceHeader, nonce)
	c.req.Header.Set(pushsign.SignatureHeader, "v1="+hex.EncodeToString(mac.Sum(nil)))
	c.req.Header.Set("Authorization", "Bearer "+l.secret)
}
