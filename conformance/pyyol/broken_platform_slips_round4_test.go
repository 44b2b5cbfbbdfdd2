package pyyol_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
)

// platformSlipsRound4 are the fourth round of push-client slips
// (docs/detection.md, "Pyyol platform, round 4"): the signed path without
// the agent's mount, a body hash in upper-case hex, a timestamp in a
// local zone, a nonce made of the timestamp, /event seqs counted per
// type, /game-end's winner by an inverted comparison and its scores from
// before the last round, a grace on runtime.timeout, an illegal card
// clamped into the hand.
func platformSlipsRound4() []platformSlip {
	seqs := &perTypeSeqs{n: map[string]int{}}
	return []platformSlip{
		{"the signature binds the route without the agent's mount", "PYYOL-PLAT-SIGN-PATH", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, c.route()), hex.EncodeToString))
		})},
		{"the body's SHA-256 is written in upper-case hex in the signing string", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			sum := sha256.Sum256(c.body)
			text := strings.Join([]string{c.ts, c.req.Header.Get(pushsign.NonceHeader), c.req.Method, c.req.URL.Path,
				strings.ToUpper(hex.EncodeToString(sum[:]))}, "\n")
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, text, hex.EncodeToString))
		})},
		{"the timestamp is RFC3339 in the server's own zone, +02:00", "PYYOL-PLAT-TIMESTAMP", onSigned(func(c *pushCall) {
			c.resignAt(time.Now().In(time.FixedZone("CEST", 2*3600)).Format(time.RFC3339))
		})},
		{"the nonce is the timestamp", "PYYOL-PLAT-NONCE", onSigned(func(c *pushCall) {
			c.resign(c.ts, "req_"+c.ts, c.req.Method, c.req.URL.Path, c.body)
		})},
		{"/event's seq is counted per event type", "PYYOL-PLAT-EVENT-BODY", onCallsTo("/event", func(c *pushCall) {
			c.editJSON(seqs.renumber)
		})},
		{"/game-end's winner is the seat with fewer points", "PYYOL-PLAT-GAME-END-BODY", onCallsTo("/game-end", func(c *pushCall) {
			c.editJSON(onResult(func(res map[string]any) {
				if w := numberOr(res["winner"]); res["winner"] != nil && w >= 0 {
					res["winner"] = 1 - w
				}
			}))
		})},
		{"/game-end's scores are the ones before the last round resolved", "PYYOL-PLAT-GAME-END-BODY", onCallsTo("/game-end", func(c *pushCall) {
			c.editJSON(onResult(func(res map[string]any) {
				if h, ok := res["history"].([]any); ok && len(h) >= 2 {
					if before, ok := h[len(h)-2].(map[string]any); ok {
						res["scores"] = before["scores"]
					}
				}
			}))
		})},
		{"runtime.timeout is given a one-second grace for the network", "PYYOL-PLAT-TURN-TIMEOUT", onCallsTo("/turn", func(c *pushCall) {
			c.trip = withGrace(time.Second)
		})},
		{"an illegal card is clamped to the nearest card in the hand", "PYYOL-PLAT-FALLBACK", onCallsTo("/turn", func(c *pushCall) {
			c.trip = clampsIllegal
		})},
	}
}

// faithfulPlatformsRound4 take readings the docs leave open next to the
// round-4 slips: /event seqs that start high and leave gaps (only their
// order and uniqueness are fixed), and a platform clock four minutes slow
// (inside the SDK's ±300 s window).
func faithfulPlatformsRound4() []platformSlip {
	return []platformSlip{
		{"/event's seq starts at 1000 and goes up in tens", "", onCallsTo("/event", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["seq"] = 1000 + 10*numberOr(m["seq"]) })
		})},
		{"the platform's clock is four minutes slow", "", onSigned(func(c *pushCall) {
			c.resignAt(pushsign.Timestamp(time.Now().Add(-4 * time.Minute)))
		})},
	}
}

// onResult applies edit to a /game-end body's result object.
func onResult(edit func(map[string]any)) func(map[string]any) {
	return func(m map[string]any) {
		if res, ok := m["result"].(map[string]any); ok {
			edit(res)
		}
	}
}

// perTypeSeqs numbers each match's events 1, 2, ... per event type: a
// counter kept beside each type's emitter, not one for the match.
type perTypeSeqs struct {
	mu sync.Mutex
	n  map[string]int
}

func (p *perTypeSeqs) renumber(m map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := fmt.Sprint(m["match_id"], "/", m["type"])
	p.n[key]++
	m["seq"] = p.n[key]
}

// withGrace waits for the turn's answer until grace past the platform's
// deadline, reading the body within that longer bound.
func withGrace(grace time.Duration) func(http.RoundTripper, *pushCall) (*http.Response, error) {
	return func(next http.RoundTripper, c *pushCall) (*http.Response, error) {
		dl, ok := c.req.Context().Deadline()
		if !ok {
			return next.RoundTrip(c.req)
		}
		ctx, cancel := context.WithDeadline(context.WithoutCancel(c.req.Context()), dl.Add(grace))
		defer cancel()
		resp, err := next.RoundTrip(c.req.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		return resp, nil
	}
}

// clampsIllegal replaces an answered card that is not among the view's
// legal_actions by the legal card nearest to it, a "repair" in place of
// the fallback.
func clampsIllegal(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	resp, err := next.RoundTrip(c.req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	legal := legalOf(decodeMap(c.body))
	var move map[string]any
	if json.Unmarshal(raw, &move) == nil && len(legal) > 0 {
		if card, ok := move["card"].(float64); ok && !containsCard(legal, int(card)) {
			move["card"] = nearest(legal, int(card))
			raw, _ = json.Marshal(move)
		}
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(raw)), int64(len(raw))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// legalOf is a /turn body's legal_actions, at the top level or under view.
func legalOf(m map[string]any) []int {
	if v, ok := m["view"].(map[string]any); ok {
		m = v
	}
	var out []int
	list, _ := m["legal_actions"].([]any)
	for _, x := range list {
		if f, ok := x.(float64); ok {
			out = append(out, int(f))
		}
	}
	return out
}

// containsCard reports whether card is among cards.
func containsCard(cards []int, card int) bool {
	for _, c := range cards {
		if c == card {
			return true
		}
	}
	return false
}

// nearest is the card of cards closest to card.
func nearest(cards []int, card int) int {
	best := cards[0]
	for _, c := range cards {
		if abs(c-card) < abs(best-card) {
			best = c
		}
	}
	return best
}

// abs is |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
