package pyyol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
)

// platformSlipsRound3 are the third round of push-client slips
// (docs/detection.md, "pyyol-platform (round 3)"): a retried /initialize
// that lost its fields, an /initialize fired without waiting, a redirect
// followed on the endpoint's own host, an /event's seq as a string, a
// turn whose attempts each get a fresh runtime.timeout, nonces built from
// the match, the answer's size checked after it was read whole, the
// Bearer carrying the signature.
func platformSlipsRound3() []platformSlip {
	inits := &callCount{}
	return []platformSlip{
		{"a retried /initialize carries only the envelope, its fields lost with the first attempt", "PYYOL-PLAT-INITIALIZE", onCallsTo("/initialize", func(c *pushCall) {
			if inits.next() > 1 {
				c.editJSON(func(m map[string]any) {
					for k := range m {
						if k != "protocol" && k != "match_id" {
							delete(m, k)
						}
					}
				})
			}
		})},
		{"/initialize is fired without waiting, racing the first /turn", "PYYOL-PLAT-INITIALIZE", onCallsTo("/initialize", func(c *pushCall) {
			c.trip = firesAndForgets
		})},
		{"a 307 is followed when it stays on the endpoint's host", "PYYOL-PLAT-NO-REDIRECT", onSigned(func(c *pushCall) {
			c.trip = followsSameHost
		})},
		{"/event's seq is sent as a string", "PYYOL-PLAT-EVENT-BODY", onCallsTo("/event", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["seq"] = fmt.Sprint(m["seq"]) })
		})},
		{"each /turn attempt gets a fresh runtime.timeout, a timed-out turn retried", "PYYOL-PLAT-TURN-TIMEOUT", onCallsTo("/turn", func(c *pushCall) {
			c.trip = deadlinePerAttempt
		})},
		{"the nonce is built from the match, the route and the round", "PYYOL-PLAT-NONCE", onSigned(func(c *pushCall) {
			m := decodeMap(c.body)
			nonce := fmt.Sprintf("req_%v_%s_%v", m["match_id"], strings.TrimPrefix(c.route(), "/"), firstOf(m["round"], m["seq"]))
			c.resign(c.ts, nonce, c.req.Method, c.req.URL.Path, c.body)
		})},
		{"the answer's size is checked after it was read whole", "PYYOL-PLAT-BOUNDED-BODY", onCallsTo("/turn", func(c *pushCall) {
			c.trip = capsAfterReading
		})},
		{"the Bearer carries the request's signature, not the secret", "PYYOL-PLAT-BEARER", onSigned(func(c *pushCall) {
			c.req.Header.Set("Authorization", "Bearer "+strings.TrimPrefix(c.req.Header.Get(pushsign.SignatureHeader), "v1="))
		})},
	}
}

// faithfulPlatformsRound3 take readings the docs leave open next to the
// round-3 slips: a retry signed with a nonce of its own under the first
// attempt's timestamp (still current), and the signing headers written in
// lower case on the wire (HTTP field names are case-insensitive).
func faithfulPlatformsRound3() []platformSlip {
	first := &firstStamp{}
	return []platformSlip{
		{"a retried /initialize keeps the first attempt's timestamp under a nonce of its own", "", onCallsTo("/initialize", func(c *pushCall) {
			c.resignAt(first.of(c.ts))
		})},
		{"the signing headers are written in lower case", "", onSigned(func(c *pushCall) {
			for _, k := range []string{pushsign.TimestampHeader, pushsign.NonceHeader, pushsign.SignatureHeader, "Authorization"} {
				v := c.req.Header.Get(k)
				c.req.Header.Del(k)
				c.req.Header[strings.ToLower(k)] = []string{v}
			}
		})},
	}
}

// callCount numbers the calls a slip sees.
type callCount struct {
	mu sync.Mutex
	n  int
}

func (c *callCount) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}

// firstStamp is the first timestamp it was asked about, ever after.
type firstStamp struct {
	mu sync.Mutex
	ts string
}

func (f *firstStamp) of(ts string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ts == "" {
		f.ts = ts
	}
	return f.ts
}

// decodeMap is a JSON object body (nil if it is none).
func decodeMap(b []byte) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// firstOf is the first of vs that is set ("" when none is).
func firstOf(vs ...any) any {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return ""
}

// firesAndForgets answers the platform 200 at once and sends the call a
// moment later, on its own: a lifecycle call made in a goroutine.
func firesAndForgets(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	r := again(c).WithContext(context.WithoutCancel(c.req.Context()))
	go func() {
		time.Sleep(time.Second)
		if resp, err := next.RoundTrip(r); err == nil {
			resp.Body.Close()
		}
	}()
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"ready":true}`)),
		Request: c.req}, nil
}

// followsSameHost follows a 3xx whose Location stays on the endpoint's
// host, signing the request again for the new path.
func followsSameHost(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	resp, err := next.RoundTrip(c.req)
	if err != nil || resp.StatusCode/100 != 3 {
		return resp, err
	}
	to, perr := c.req.URL.Parse(resp.Header.Get("Location"))
	if perr != nil || to.Host != c.req.URL.Host {
		return resp, nil
	}
	resp.Body.Close()
	c.req = again(c)
	c.req.URL, c.req.Host = to, to.Host
	c.resign(c.ts, c.req.Header.Get(pushsign.NonceHeader)+"_moved", c.req.Method, to.Path, c.body)
	return next.RoundTrip(c.req)
}

// deadlinePerAttempt gives each attempt of a turn the platform's whole
// deadline afresh, reading the answer within it, and tries once more
// when the first attempt runs out: runtime.timeout per attempt, not per
// turn.
func deadlinePerAttempt(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	dl, ok := c.req.Context().Deadline()
	if !ok {
		return next.RoundTrip(c.req)
	}
	budget := time.Until(dl)
	var err error
	for try := 0; try < 2; try++ {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.req.Context()), budget)
		var resp *http.Response
		resp, err = next.RoundTrip(again(c).WithContext(ctx))
		if err == nil {
			var raw []byte
			raw, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				cancel()
				resp.Body = io.NopCloser(bytes.NewReader(raw))
				return resp, nil
			}
		}
		cancel()
	}
	return nil, err
}

// capsAfterReading reads the whole answer, then refuses it if it is over
// the real client's 64 KiB.
func capsAfterReading(next http.RoundTripper, c *pushCall) (*http.Response, error) {
	resp, err := next.RoundTrip(c.req)
	if err != nil {
		return resp, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if len(raw) > 64<<10 {
		return nil, errors.New("answer too large")
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return resp, nil
}
