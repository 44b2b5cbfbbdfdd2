package pyyol_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// pushCall is one call the reference platform is about to make to an agent
// endpoint, as a planted slip sees it: the request (its headers and URL
// are the slip's to change), the body it will carry and the parts the
// platform signed.
type pushCall struct {
	req  *http.Request
	body []byte
	ts   string
	// secret is the endpoint secret, read back from the Authorization
	// header the platform sends (empty on the unsigned /health probe).
	secret string
	// trip, when a slip sets it, sends the call in place of the
	// transport and hands back the answer the platform reads (a slip in
	// how the answer is awaited or read, not in the call).
	trip func(next http.RoundTripper, c *pushCall) (*http.Response, error)
}

// route is the sibling the call is for ("/turn", "/event", "/health"...).
func (c *pushCall) route() string { return c.req.URL.Path[strings.LastIndex(c.req.URL.Path, "/"):] }

// signed reports whether the platform signed the call (all but /health).
func (c *pushCall) signed() bool { return c.req.Header.Get(pushsign.SignatureHeader) != "" }

// resign signs the call again over the given canonical parts, as a
// platform that builds them its own way would.
func (c *pushCall) resign(ts, nonce, method, path string, body []byte) {
	c.req.Header.Set(pushsign.TimestampHeader, ts)
	c.req.Header.Set(pushsign.NonceHeader, nonce)
	c.req.Header.Set(pushsign.SignatureHeader, pushsign.Header([]byte(c.secret), ts, nonce, method, path, body))
}

// resignAt is resign with the call's own nonce, method, path and body and
// another timestamp.
func (c *pushCall) resignAt(ts string) {
	c.resign(ts, c.req.Header.Get(pushsign.NonceHeader), c.req.Method, c.req.URL.Path, c.body)
}

// editJSON changes the call's JSON body with edit and signs the new bytes
// (the platform built that body and signed what it sent).
func (c *pushCall) editJSON(edit func(map[string]any)) {
	var m map[string]any
	if json.Unmarshal(c.body, &m) != nil {
		return
	}
	edit(m)
	c.body, _ = json.Marshal(m)
	c.resignAt(c.ts)
}

// slipTransport plants a slip in every call of the platform's push
// client: it hands each call to slip before sending it, and sends it
// through the call's trip when the slip set one.
type slipTransport struct {
	next http.RoundTripper
	slip func(*pushCall)
}

func (s slipTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body.Close()
	}
	c := &pushCall{req: r.Clone(r.Context()), body: body, ts: r.Header.Get(pushsign.TimestampHeader),
		secret: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}
	s.slip(c)
	c.req.Body, c.req.ContentLength = io.NopCloser(bytes.NewReader(c.body)), int64(len(c.body))
	c.req.GetBody = nil
	if c.trip != nil {
		return c.trip(s.next, c)
	}
	return s.next.RoundTrip(c.req)
}

// platformSlip is one realistic bug of a platform's push client: what it
// is, the rule a live pyyol-platform run must fail for it, and the edit.
type platformSlip struct {
	name, rule string
	slip       func(*pushCall)
}

// onSigned applies edit to the signed calls only.
func onSigned(edit func(*pushCall)) func(*pushCall) {
	return func(c *pushCall) {
		if c.signed() {
			edit(c)
		}
	}
}

// onCallsTo applies edit to the calls of one route only.
func onCallsTo(route string, edit func(*pushCall)) func(*pushCall) {
	return func(c *pushCall) {
		if c.route() == route {
			edit(c)
		}
	}
}

// signatureOf is the v1 HMAC of text under the call's secret, hex or as
// encode writes it.
func signatureOf(c *pushCall, text string, encode func([]byte) string) string {
	mac := hmac.New(sha256.New, []byte(c.secret))
	mac.Write([]byte(text))
	return "v1=" + encode(mac.Sum(nil))
}

// canonical is the documented signing string of the call's parts, over
// path.
func canonical(c *pushCall, path string) string {
	return pushsign.SigningString(c.ts, c.req.Header.Get(pushsign.NonceHeader), c.req.Method, path, c.body)
}

// platformSlips are bugs an implementer of the push protocol's platform
// side would plausibly write, none of them among the server.Tamper faults
// of brokenPushPlatforms (docs/detection.md keeps their tally): the
// signature's form, its canonical string built another way, the body
// changed after signing, timestamps in other clocks and formats, nonces
// that repeat, the socket's spellings in push bodies.
func platformSlips() []platformSlip {
	nonces := &restartingNonces{}
	return append([]platformSlip{
		{"the signature lacks its v1= prefix", "PYYOL-PLAT-HEADERS", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, strings.TrimPrefix(c.req.Header.Get(pushsign.SignatureHeader), "v1="))
		})},
		{"the signature is base64, not hex", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, c.req.URL.Path), base64.StdEncoding.EncodeToString))
		})},
		{"the signature is upper-case hex", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, c.req.URL.Path), func(b []byte) string {
				return strings.ToUpper(hex.EncodeToString(b))
			}))
		})},
		{"the canonical string puts the nonce before the timestamp", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			parts := strings.SplitN(canonical(c, c.req.URL.Path), "\n", 2)
			rest := strings.SplitN(parts[1], "\n", 2)
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, rest[0]+"\n"+parts[0]+"\n"+rest[1], hex.EncodeToString))
		})},
		{"the canonical string has the method in lower case", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			text := strings.Replace(canonical(c, c.req.URL.Path), "\n"+c.req.Method+"\n", "\n"+strings.ToLower(c.req.Method)+"\n", 1)
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, text, hex.EncodeToString))
		})},
		{"the canonical string ends with a newline", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, c.req.URL.Path)+"\n", hex.EncodeToString))
		})},
		{"the body is pretty-printed after it was signed", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			var out bytes.Buffer
			if json.Indent(&out, c.body, "", "  ") == nil {
				c.body = out.Bytes()
			}
		})},
		{"the body gets its protocol field after it was signed", "PYYOL-PLAT-SIGNED", onSigned(func(c *pushCall) {
			var m map[string]any
			if json.Unmarshal(c.body, &m) != nil {
				return
			}
			delete(m, "protocol")
			before, _ := json.Marshal(m)
			saved := c.body
			c.body = before
			c.resignAt(c.ts)
			c.body = saved
		})},
		{"the signature binds the whole URL, not the path", "PYYOL-PLAT-SIGN-PATH", onSigned(func(c *pushCall) {
			whole := c.req.URL.Scheme + "://" + c.req.URL.Host + c.req.URL.Path
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, whole), hex.EncodeToString))
		})},
		{"the signature binds the path with a trailing slash", "PYYOL-PLAT-SIGN-PATH", onSigned(func(c *pushCall) {
			c.req.Header.Set(pushsign.SignatureHeader, signatureOf(c, canonical(c, c.req.URL.Path+"/"), hex.EncodeToString))
		})},
		{"the timestamp is Unix seconds", "PYYOL-PLAT-TIMESTAMP", onSigned(func(c *pushCall) {
			c.resignAt(strconv.FormatInt(time.Now().Unix(), 10))
		})},
		{"the timestamp is local time without a zone", "PYYOL-PLAT-TIMESTAMP", onSigned(func(c *pushCall) {
			c.resignAt(time.Now().UTC().Format("2006-01-02T15:04:05"))
		})},
		{"the platform's clock is six minutes slow", "PYYOL-PLAT-TIMESTAMP", onSigned(func(c *pushCall) {
			c.resignAt(pushsign.Timestamp(time.Now().Add(-6 * time.Minute)))
		})},
		{"the nonce is a counter that restarts with each call sequence", "PYYOL-PLAT-NONCE", onSigned(nonces.next)},
		{"Authorization carries the secret without Bearer", "PYYOL-PLAT-BEARER", onSigned(func(c *pushCall) {
			c.req.Header.Set("Authorization", c.secret)
		})},
		{"protocol is the number 1.0, not the string", "PYYOL-PUSH-PROTOCOL-FIELD", onSigned(func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["protocol"] = 1.0 })
		})},
		{"/event names its type kind, as the socket does", "PYYOL-PLAT-EVENT-BODY", onCallsTo("/event", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["kind"] = m["type"]; delete(m, "type") })
		})},
		{"/game-end carries its result as payload, as the socket does", "PYYOL-PLAT-GAME-END-BODY", onCallsTo("/game-end", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["payload"] = m["result"]; delete(m, "result") })
		})},
		{"/initialize names no seat", "PYYOL-PLAT-INITIALIZE", onCallsTo("/initialize", func(c *pushCall) {
			c.editJSON(func(m map[string]any) { delete(m, "seat") })
		})},
		{"the liveness probe is a HEAD", "PYYOL-PLAT-HEALTH", onCallsTo("/health", func(c *pushCall) {
			c.req.Method = http.MethodHead
		})},
		// Round 2: platformSlipsRound2 in broken_platform_slips_round2_test.go;
		// Round 3: platformSlipsRound3 in broken_platform_slips_round3_test.go;
		// Round 4: platformSlipsRound4 in broken_platform_slips_round4_test.go.
		// Round 5, on the stake-tier HTTP surface, not the push client:
		// platformStakeSlipsRound5 in broken_platform_slips_round5_test.go
		// (TestPlatformStakeSlipsAreCaught, run through pyyol-gateway).
		// Round 6: platformSlipsRound6 in broken_platform_slips_round6_test.go.
	}, append(platformSlipsRound2(), append(platformSlipsRound3(), append(platformSlipsRound4(), platformSlipsRound6()...)...)...)...)
}

// restartingNonces numbers the platform's nonces req_1, req_2, ... and
// starts again at every /handshake and /initialize: a counter kept per
// call sequence, so the verify's nonces come back in the match.
type restartingNonces struct {
	mu sync.Mutex
	n  int
}

func (r *restartingNonces) next(c *pushCall) {
	r.mu.Lock()
	if c.route() == "/handshake" || c.route() == "/initialize" {
		r.n = 0
	}
	r.n++
	nonce := "req_" + strconv.Itoa(r.n)
	r.mu.Unlock()
	c.resign(c.ts, nonce, c.req.Method, c.req.URL.Path, c.body)
}

// faithfulPlatforms take readings the push protocol leaves open: another
// spelling of UTC, fractional seconds, a nonce of another form, an
// auth-scheme in lower case (RFC 9110: case-insensitive), more fields.
func faithfulPlatforms() []platformSlip {
	return append([]platformSlip{
		{"the timestamp is +00:00, not Z", "", onSigned(func(c *pushCall) {
			c.resignAt(time.Now().UTC().Format("2006-01-02T15:04:05+00:00"))
		})},
		{"the timestamp has milliseconds", "", onSigned(func(c *pushCall) {
			c.resignAt(time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
		})},
		{"the nonce is a bare UUID-like hex string", "", onSigned(func(c *pushCall) {
			sum := sha256.Sum256([]byte(c.req.Header.Get(pushsign.NonceHeader)))
			c.resign(c.ts, hex.EncodeToString(sum[:16]), c.req.Method, c.req.URL.Path, c.body)
		})},
		{"the auth-scheme is written bearer", "", onSigned(func(c *pushCall) {
			c.req.Header.Set("Authorization", "bearer "+c.secret)
		})},
		{"every body carries a sent_at field too", "", onSigned(func(c *pushCall) {
			c.editJSON(func(m map[string]any) { m["sent_at"] = c.ts })
		})},
		// Round 2: faithfulPlatformsRound2 in broken_platform_slips_round2_test.go;
		// Round 3: faithfulPlatformsRound3 in broken_platform_slips_round3_test.go;
		// Round 4: faithfulPlatformsRound4 in broken_platform_slips_round4_test.go.
		// Round 5: faithfulStakePlatformsRound5 in broken_platform_slips_round5_test.go
		// (TestFaithfulStakePlatformsFailNothing).
		// Round 6: faithfulPlatformsRound6 in broken_platform_slips_round6_test.go.
	}, append(faithfulPlatformsRound2(), append(faithfulPlatformsRound3(), append(faithfulPlatformsRound4(), faithfulPlatformsRound6()...)...)...)...)
}

// slippedPlatform is the reference platform with slip planted in its push
// client, served over loopback.
func slippedPlatform(t *testing.T, s platformSlip) string {
	t.Helper()
	srv := httptest.NewServer(server.New(server.Options{PushWrap: func(next http.RoundTripper) http.RoundTripper {
		return slipTransport{next: next, slip: s.slip}
	}}))
	t.Cleanup(srv.Close)
	return srv.URL + server.BasePath
}

// TestPlatformSlipsAreCaught: each slip, planted alone in the reference
// platform's push client and checked live with only its rule selected,
// fails naming that rule.
func TestPlatformSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, s := range platformSlips() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			rep := runLive(t, pyyol.Platform(), slippedPlatform(t, s), s.rule, platformSettings)
			if rep.ExitCode() != 1 || !rep.Failed(s.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), s.rule, failedRules(rep))
			}
		})
	}
}

// TestFaithfulPushPlatformsFailNothing: a platform taking a reading the
// push protocol leaves open fails no pyyol-platform check.
func TestFaithfulPushPlatformsFailNothing(t *testing.T) {
	t.Parallel()
	for _, s := range faithfulPlatforms() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			rep := runLive(t, pyyol.Platform(), slippedPlatform(t, s), "", platformSettings)
			for _, r := range rep.Results {
				if r.Status == verdict.Fail || r.Status == verdict.Error {
					t.Errorf("%s %s: %s %s", r.Status, r.Name, r.FailedRule, r.Message)
				}
			}
			if rep.ExitCode() != 0 {
				t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
			}
		})
	}
}
