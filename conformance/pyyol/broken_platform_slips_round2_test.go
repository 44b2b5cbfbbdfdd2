package pyyol_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"path"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
)

// platformSlipsRound2 are the second round of push-client slips
// (docs/detection.md, "pyyol-platform (round 2)"): a retry that sends the
// first attempt's signed request again, the HMAC keyed with the secret as
// read from a file, every call signed over endpoint.url's path, a turn
// timeout that stops at the answer's headers, a non-200 turn answer read
// as a move, /initialize's seat and player count off by one, the game
// named as the docs title it.
func platformSlipsRound2() []platformSlip {
	return []platformSlip{
		{"a retry sends the first attempt's signed request again", "PYYOL-PLAT-NONCE", onSigned(func(c *pushCall) {
			c.trip = resendsOnFailure
		})},
		{"the HMAC is keyed with the secret and its trailing newline", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			keyed := *c
			keyed.secret += "\n"
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(&keyed, canonical(c, c.req.URL.Path), hex.EncodeToString))
		})},
		{"every call is signed over endpoint.url's path", "PYYOL-PLAT-SIGN-PATH", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, path.Dir(c.req.URL.Path)+"/turn"), hex.EncodeToString))
		})},
		{"runtime.timeout bounds the wait for the turn's headers only", "PYYOL-PLAT-TURN-TIMEOUT", onCallsTo("/turn", func(c *pushCall) {
			c.trip = headersOnlyDeadline
		})},
		{"a non-200 turn answer is read as the move", "PYYOL-PLAT-FALLBACK", onCallsTo("/turn", func(c *pushCall) {
			c.trip = ignoresStatus
		})},
		{"/initialize counts the other players only", "PYYOL-PLAT-INITIALIZE", onCallsTo("/initialize", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["players"] = numberOr(m["players"]) - 1 })
		})},
		{"/initialize numbers the seat from 1", "PYYOL-PLAT-INITIALIZE", onCallsTo("/initialize", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["seat"] = numberOr(m["seat"]) + 1 })
		})},
		{"/turn names the game Goofspiel, as the docs title it", "PYYOL-PLAT-TURN-BODY", onCallsTo("/turn", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["game"] = "Goofspiel" })
		})},
	}
}

// faithfulPlatformsRound2 take readings the docs leave open next to the
// round-2 slips: an at-least-once /event (the same seq again, under a
// nonce of its own) and a /turn whose view is wrapped under "view".
func faithfulPlatformsRound2() []platformSlip {
	return []platformSlip{
		{"every /event is delivered twice, the second under a nonce of its own", "", onCallsTo("/event", func(c *pushCall) {
			c.trip = deliversTwice
		})},
		{"/turn wraps the view under view", "", onCallsTo("/turn", func(c *pushCall) {
			c.editJSON(func(m map[string]any) {
				view := map[string]any{}
				for k, v := range m {
					if k != "match_id" && k != "game" && k != "protocol" {
						view[k] = v
						delete(m, k)
					}
				}
				m["view"] = view
			})
		})},
	}
}

// numberOr is a decoded JSON number as an int (0 if it is none).
func numberOr(v any) int {
	n, _ := v.(float64)
	return int(n)
}

// again is the call's request once more, with its body from the start.
func again(c *pushCall) *http.Request {
	r := c.req.Clone(c.req.Context())
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(c.body)), int64(len(c.body))
	return r
}

// resendsOnFailure retries a 5xx or a failed call by sending the very
// request again, its signature and nonce with it.
func resendsOnFailure(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	resp, err := next.RoundTrip(c.req)
	for try := 0; try < 2 && (err != nil || resp.StatusCode >= 500) && c.req.Context().Err() == nil; try++ {
		if err == nil {
			resp.Body.Close()
		}
		resp, err = next.RoundTrip(again(c))
	}
	return resp, err
}

// headersOnlyDeadline gives up on a call when its deadline passes before
// the answer's headers, and reads the body without one: a deadline that
// covers the headers only (http.Transport's ResponseHeaderTimeout).
func headersOnlyDeadline(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.req.Context()), time.Minute)
	type answer struct {
		resp *http.Response
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := next.RoundTrip(c.req.WithContext(ctx))
		got <- answer{resp, err}
	}()
	select {
	case a := <-got:
		if a.err != nil {
			cancel()
			return nil, a.err
		}
		a.resp.Body = cancelOnClose{a.resp.Body, cancel}
		return a.resp, nil
	case <-c.req.Context().Done():
		cancel()
		return nil, c.req.Context().Err()
	}
}

// cancelOnClose ends the body's own context when the body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

// ignoresStatus hands the platform every answer as a 200.
func ignoresStatus(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	resp, err := next.RoundTrip(c.req)
	if err == nil && resp.StatusCode >= 400 {
		resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
	}
	return resp, err
}

// deliversTwice sends the call, then the same body signed afresh under a
// nonce of its own, and hands back the first answer.
func deliversTwice(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	resp, err := next.RoundTrip(c.req)
	if err != nil {
		return resp, err
	}
	sum := sha256.Sum256([]byte("again " + c.req.Header.Get(pushsign.NonceHeader)))
	c.resign(c.ts, "req_"+hex.EncodeToString(sum[:12]), c.req.Method, c.req.URL.Path, c.body)
	if second, err := next.RoundTrip(again(c)); err == nil {
		second.Body.Close()
	}
	return resp, nil
}
