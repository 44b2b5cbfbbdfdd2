package driver_test

// Tests of the runner's server side: the loopback endpoint an agent calls
// (the bounty's share exchange) and signed pushes to an agent-hosted
// endpoint (Pyyol's legacy push protocol), checked by an independent
// implementation of Pyyol's signing scheme written here from the contract.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

func newInbound(t *testing.T, opts driver.InboundOptions) *driver.Inbound {
	t.Helper()
	in, err := driver.NewInbound(opts)
	require.NoError(t, err)
	t.Cleanup(func() { in.Close() })
	return in
}

// agentPost plays an agent calling the runner's endpoint.
func agentPost(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func TestInboundAnswersAndReportsWhatTheAgentSent(t *testing.T) {
	const share = "share_hex_0123456789abcdef"
	rec := &driver.Recorder{}
	in := newInbound(t, driver.InboundOptions{Recorder: rec})
	in.Secrets().Add(share)
	assert.True(t, strings.HasPrefix(in.URL(), "http://127.0.0.1:"), in.URL())
	in.Handle(driver.JSONReply(http.StatusConflict, map[string]any{"ok": false, "code": "board_not_combinable"}))

	resp := agentPost(t, in.URL()+"/exchange?x=1", `{"kind":"offer","share_hex":"`+share+`"}`)
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "the agent got the step's answer")

	got, err := in.Next(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "POST", got.Method)
	assert.Equal(t, "/exchange", got.Path)
	assert.Equal(t, "x=1", got.Query)
	assert.Equal(t, http.StatusConflict, got.Status)
	assert.JSONEq(t, `{"ok":false,"code":"board_not_combinable"}`, string(got.Reply))
	var body struct{ Kind, ShareHex string }
	require.NoError(t, got.Decode("TEST-RULE", &body))
	assert.Equal(t, "offer", body.Kind)

	x := rec.Exchanges()
	require.Len(t, x, 1)
	assert.Equal(t, "POST", x[0].Method)
	assert.Equal(t, http.StatusConflict, x[0].Status)
	assert.Contains(t, x[0].RespBody, "board_not_combinable")
	assert.NotContains(t, transcript(rec), share, "the share is redacted in the transcript")
	assert.Contains(t, x[0].ReqBody, driver.Redacted)
}

func TestInboundDefaultReplyAndMalformedBody(t *testing.T) {
	in := newInbound(t, driver.InboundOptions{})
	resp := agentPost(t, in.URL()+"/turn", `not json`)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	got, err := in.Next(context.Background())
	require.NoError(t, err)
	err = got.Decode("TEST-RULE", &struct{}{})
	var f *verdict.Failure
	require.True(t, errors.As(err, &f), "got %v", err)
	assert.Equal(t, "TEST-RULE", f.RuleID)
}

func TestInboundSilenceIsATimeout(t *testing.T) {
	in := newInbound(t, driver.InboundOptions{Timeout: 50 * time.Millisecond})
	_, err := in.Next(context.Background())
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	assert.ErrorIs(t, err, driver.ErrTimeout)
}

// TestInboundQueuedRequestBeatsAnExpiredDeadline pins that a call that
// came is never reported as silence because the runner looked late.
func TestInboundQueuedRequestBeatsAnExpiredDeadline(t *testing.T) {
	in := newInbound(t, driver.InboundOptions{})
	for i := range 20 {
		agentPost(t, in.URL()+"/turn", fmt.Sprintf(`{"n":%d}`, i))
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	for i := range 20 {
		got, err := in.Next(expired)
		require.NoError(t, err, "request %d was queued", i)
		assert.JSONEq(t, fmt.Sprintf(`{"n":%d}`, i), string(got.Body))
	}
	_, err := in.Next(expired)
	assert.ErrorIs(t, err, driver.ErrTimeout, "an empty queue with an expired deadline is silence")
}

func TestInboundOverflowIsAHarnessError(t *testing.T) {
	in := newInbound(t, driver.InboundOptions{Buffer: 1})
	agentPost(t, in.URL(), `{}`)
	agentPost(t, in.URL(), `{}`)
	_, err := in.Next(context.Background())
	assert.ErrorIs(t, err, driver.ErrOverflow)
}

func TestInboundOversizedBodyIsRefusedAndReported(t *testing.T) {
	in := newInbound(t, driver.InboundOptions{MaxBody: 8})
	resp := agentPost(t, in.URL(), `{"a":"0123456789"}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	got, err := in.Next(context.Background())
	require.NoError(t, err)
	assert.Equal(t, http.StatusRequestEntityTooLarge, got.Status)
}

// pyyolAgent is an agent endpoint verifying Pyyol push signatures with its
// own code, written from protocol.md, sharing nothing with the driver.
type pyyolAgent struct {
	secret string
	mu     sync.Mutex
	nonces map[string]bool
	seen   []http.Header
}

func (a *pyyolAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, r.Header.Clone())
	ts, nonce := r.Header.Get("X-Arena-Timestamp"), r.Header.Get("X-Arena-Request-Id")
	sig := r.Header.Get("X-Arena-Signature")
	if ts == "" || nonce == "" || sig == "" {
		a.refuse(w, "missing_signature")
		return
	}
	sum := sha256.Sum256(body)
	mac := hmac.New(sha256.New, []byte(a.secret))
	fmt.Fprintf(mac, "%s\n%s\n%s\n%s\n%x", ts, nonce, r.Method, r.URL.Path, sum)
	if !hmac.Equal([]byte(sig), []byte("v1="+hex.EncodeToString(mac.Sum(nil)))) {
		a.refuse(w, "bad_signature")
		return
	}
	at, err := time.Parse(time.RFC3339, ts)
	if err != nil || time.Since(at) > 300*time.Second || time.Until(at) > 300*time.Second {
		a.refuse(w, "stale_timestamp")
		return
	}
	if a.nonces[nonce] {
		a.refuse(w, "replayed_nonce")
		return
	}
	a.nonces[nonce] = true
	fmt.Fprint(w, `{"round":0,"card":5}`)
}

func (a *pyyolAgent) refuse(w http.ResponseWriter, reason string) {
	w.WriteHeader(http.StatusUnauthorized)
	fmt.Fprintf(w, `{"error":"unauthorized","reason":%q}`, reason)
}

func startPyyolAgent(t *testing.T, secret string) (*pyyolAgent, string) {
	a := &pyyolAgent{secret: secret, nonces: map[string]bool{}}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return a, srv.URL
}

func TestSignedPushVerifiesUnderAnIndependentCheck(t *testing.T) {
	const secret = "endpoint_secret_9f8e7d6c"
	a, url := startPyyolAgent(t, secret)
	secrets := &driver.Secrets{}
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: url, Secrets: secrets},
		driver.NewHMACSigner(secret, driver.PyyolScheme(), secrets))
	for _, path := range []string{"/turn", "/event?seq=3"} {
		resp, err := push.Do(context.Background(), driver.Request{Method: "POST", Path: path,
			JSON: map[string]any{"protocol": "1.0", "round": 0}})
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.Status, "%s: %s", path, resp.Body)
	}
	require.Len(t, a.seen, 2)
	assert.NotEqual(t, a.seen[0].Get("X-Arena-Request-Id"), a.seen[1].Get("X-Arena-Request-Id"), "a fresh nonce per request")
	assert.Equal(t, "Bearer "+secret, a.seen[0].Get("Authorization"), "the back-compat bearer header")
	assert.True(t, strings.HasSuffix(a.seen[0].Get("X-Arena-Timestamp"), "Z"), "RFC3339 UTC")
}

func TestSignedPushCanReplayANonceAndSendAStaleTimestamp(t *testing.T) {
	const secret = "endpoint_secret_9f8e7d6c"
	_, url := startPyyolAgent(t, secret)
	signer := driver.NewHMACSigner(secret, driver.PyyolScheme(), nil)
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: url}, signer)
	replay := driver.Request{Method: "POST", Path: "/turn", JSON: map[string]int{"round": 1},
		Header: map[string]string{"X-Arena-Request-Id": "req_fixed_nonce"}}
	first, err := push.Do(context.Background(), replay)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, first.Status, "the caller's nonce was signed: %s", first.Body)
	second, err := push.Do(context.Background(), replay)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, second.Status)
	assert.Contains(t, string(second.Body), "replayed_nonce", "the signature held, only the nonce was refused")

	signer.Now = func() time.Time { return time.Now().Add(-time.Hour) }
	stale, err := push.Do(context.Background(), driver.Request{Method: "POST", Path: "/turn", JSON: map[string]int{"round": 2}})
	require.NoError(t, err)
	assert.Contains(t, string(stale.Body), "stale_timestamp")

	wrong := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: url}, driver.NewHMACSigner("another_secret", driver.PyyolScheme(), nil))
	bad, err := wrong.Do(context.Background(), driver.Request{Method: "POST", Path: "/turn", JSON: map[string]int{}})
	require.NoError(t, err)
	assert.Contains(t, string(bad.Body), "bad_signature", "the independent check does reject a wrong key")

	unsigned, err := push.Unsigned().Do(context.Background(), driver.Request{Method: "POST", Path: "/turn"})
	require.NoError(t, err)
	assert.Contains(t, string(unsigned.Body), "missing_signature")
}

func TestPyyolSigningStringMatchesTheContract(t *testing.T) {
	body := []byte(`{"round":0}`)
	sum := sha256.Sum256(body)
	want := "2026-07-06T12:00:00Z\nreq_9f8e\nPOST\n/turn\n" + hex.EncodeToString(sum[:])
	assert.Equal(t, want, driver.PyyolSigningString("2026-07-06T12:00:00Z", "req_9f8e", "post", "/turn", body))
}

func TestSignerSecretNeverReachesTheTranscript(t *testing.T) {
	const secret = "endpoint_secret_abcdef12"
	_, url := startPyyolAgent(t, secret)
	rec := &driver.Recorder{}
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: url}, driver.NewHMACSigner(secret, driver.PyyolScheme(), nil)).
		WithRecorder(rec)
	_, err := push.Do(context.Background(), driver.Request{Method: "POST", Path: "/turn", JSON: map[string]string{"echo": secret}})
	require.NoError(t, err)
	x := rec.Exchanges()
	require.Len(t, x, 1)
	assert.NotContains(t, transcript(rec), secret)
	assert.Equal(t, "Bearer "+driver.Redacted, x[0].ReqHeader["Authorization"])
	assert.Contains(t, x[0].ReqHeader["X-Arena-Signature"], "v1=", "the signature header is in the transcript")
}

func TestVerifyAcceptsIndependentSignaturesAndRejectsTampering(t *testing.T) {
	const secret = "endpoint_secret_9f8e7d6c"
	signer := driver.NewHMACSigner(secret, driver.PyyolScheme(), nil)
	body := []byte(`{"t":1}`)
	sum := sha256.Sum256(body)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "2026-07-06T12:00:00Z\nreq_1\nPOST\n/turn\n%x", sum)
	req := httptest.NewRequest("POST", "/turn?ignored=1", nil)
	req.Header.Set("X-Arena-Timestamp", "2026-07-06T12:00:00Z")
	req.Header.Set("X-Arena-Request-Id", "req_1")
	req.Header.Set("X-Arena-Signature", "v1="+hex.EncodeToString(mac.Sum(nil)))
	assert.NoError(t, signer.Verify(req, body))
	assert.ErrorIs(t, signer.Verify(req, []byte(`{"t":2}`)), driver.ErrBadSignature, "tampered body")
	moved := req.Clone(context.Background())
	moved.URL.Path = "/event"
	assert.ErrorIs(t, signer.Verify(moved, body), driver.ErrBadSignature, "the signature binds the path")
	req.Header.Del("X-Arena-Signature")
	assert.ErrorIs(t, signer.Verify(req, body), driver.ErrBadSignature, "missing signature")
}

func TestSignedPushNeverFollowsRedirects(t *testing.T) {
	var followed atomic.Bool
	mux := http.NewServeMux()
	mux.Handle("/turn", http.RedirectHandler("/elsewhere", http.StatusTemporaryRedirect))
	mux.HandleFunc("/elsewhere", func(http.ResponseWriter, *http.Request) { followed.Store(true) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: srv.URL}, driver.NewHMACSigner("s3cret_key", driver.PyyolScheme(), nil))
	_, err := push.Do(context.Background(), driver.Request{Method: "POST", Path: "/turn", JSON: map[string]int{}})
	require.Error(t, err)
	var harness *verdict.HarnessError
	assert.True(t, errors.As(err, &harness), "a redirect is a harness error, not an answer to judge: %v", err)
	assert.Contains(t, err.Error(), "redirecting to /elsewhere")
	assert.False(t, followed.Load(), "the redirect was followed")
}
