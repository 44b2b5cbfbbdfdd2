package pyyol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// answers replaces the agent's answer on one route.
func answers(path string, status int, body any) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, path) {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(body)
		})
	}
}

// healthAtRoot serves /health at the origin's root instead of beside
// /turn: the route exists, but not as a sibling (PYYOL-PUSH-SIBLINGS).
func healthAtRoot(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case agent.BasePath + "/health":
			http.NotFound(w, r)
		case "/health":
			r.URL.Path = agent.BasePath + "/health"
			h.ServeHTTP(w, r)
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// variant is an agent whose own verification departs from the docs in one
// way: a signing string without the body hash, the signature read from
// another header, the query string signed, or a narrower skew window.
type variant struct {
	noBodyHash, signsQuery bool
	header                 string
	window                 time.Duration
}

func (v variant) wrap(h http.Handler) http.Handler {
	seen := map[string]bool{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/health") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if reason := v.check(r, body, seen); reason != "" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(map[string]string{"error": "unauthorized", "reason": reason})
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (v variant) check(r *http.Request, body []byte, seen map[string]bool) string {
	header := pushsign.SignatureHeader
	if v.header != "" {
		header = v.header
	}
	ts, nonce, sig := r.Header.Get(pushsign.TimestampHeader), r.Header.Get(pushsign.NonceHeader), r.Header.Get(header)
	if ts == "" || nonce == "" || sig == "" {
		return "missing_signature"
	}
	at, err := time.Parse(time.RFC3339, ts)
	window := pushsign.Skew
	if v.window > 0 {
		window = v.window
	}
	if err != nil || time.Since(at) > window || time.Until(at) > window {
		return "stale_timestamp"
	}
	path := r.URL.EscapedPath()
	if v.signsQuery && r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	want := pushsign.Header([]byte(agent.DevSecret), ts, nonce, r.Method, path, body)
	if v.noBodyHash {
		want = pushsign.Header([]byte(agent.DevSecret), ts, nonce, r.Method, path, nil)
	}
	if v.signsQuery && r.URL.RawQuery != "" {
		// SigningString cuts the query; sign the full text by hand.
		text := strings.Join([]string{ts, nonce, r.Method, path, sha(body)}, "\n")
		want = pushsign.Prefix + hexOf(pushsign.HMACSHA256([]byte(agent.DevSecret), []byte(text)))
	}
	if sig != want {
		return "bad_signature"
	}
	if seen[nonce] {
		return "replayed_nonce"
	}
	seen[nonce] = true
	return ""
}

func hexOf(b []byte) string { return strings.ToLower(strings.TrimSpace(string(hexEncode(b)))) }

func hexEncode(b []byte) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}

// brokenAgents lists, for every MUST rule of the push protocol a live run
// can check on an agent, an agent endpoint that breaks it.
func brokenAgents() []struct {
	rule  string
	agent http.Handler
} {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	flawed := func(f agent.Flaw) http.Handler { return agent.New(agent.Options{Flaw: f}) }
	skipping := agent.New(agent.Options{Flaw: agent.SkipsSignature})
	return []struct {
		rule  string
		agent http.Handler
	}{
		{"PYYOL-PUSH-SIBLINGS", healthAtRoot(faithful())},
		{"PYYOL-PUSH-HEALTH", answers("/health", http.StatusOK, map[string]string{"status": "ok"})(faithful())},
		{"PYYOL-PUSH-HANDSHAKE", answers("/handshake", http.StatusOK, map[string]any{"accepted": false, "supportedGames": []string{}})(faithful())},
		{"PYYOL-PUSH-INITIALIZE", answers("/initialize", http.StatusInternalServerError, map[string]string{"error": "boom"})(faithful())},
		{"PYYOL-PUSH-EVENT-ACK", answers("/event", http.StatusInternalServerError, map[string]string{"error": "boom"})(faithful())},
		{"PYYOL-PUSH-GAME-END-ACK", answers("/game-end", http.StatusInternalServerError, map[string]string{"error": "boom"})(faithful())},
		{"PYYOL-PUSH-TURN", answers("/turn", http.StatusInternalServerError, map[string]string{"error": "boom"})(faithful())},
		// A move whose card is a string: goofspiel-move.json refuses it.
		{"PYYOL-PUSH-TURN", answers("/turn", http.StatusOK, map[string]any{"round": 0, "card": "5"})(faithful())},
		{"PYYOL-PUSH-LEGAL-MOVES", alwaysThirteen(faithful())},
		{"PYYOL-SIGN-STRING", variant{noBodyHash: true}.wrap(skipping)},
		{"PYYOL-SIGN-HEADERS", variant{header: "X-Signature"}.wrap(skipping)},
		{"PYYOL-SIGN-PATH", variant{signsQuery: true}.wrap(skipping)},
		{"PYYOL-SIGN-SKEW-WINDOW", variant{window: time.Minute}.wrap(skipping)},
		{"PYYOL-SIGN-SKEW-WINDOW", variant{window: 298 * time.Second}.wrap(skipping)},
		{"PYYOL-SIGN-STALE", variant{window: 302 * time.Second}.wrap(skipping)},
		{"PYYOL-SIGN-STALE", variant{window: 900 * time.Second}.wrap(skipping)},
		{"PYYOL-SIGN-BAD", flawed(agent.SkipsSignature)},
		{"PYYOL-SIGN-STALE", flawed(agent.AcceptsStale)},
		{"PYYOL-SIGN-REPLAY", flawed(agent.AcceptsReplay)},
		{"PYYOL-SIGN-MISSING", flawed(agent.IgnoresMissing)},
		{"PYYOL-SIGN-CONSTANT-TIME", flawed(agent.ComparesEarlyExit)},
	}
}

// alwaysThirteen bids card 13 every round: legal once, then illegal.
func alwaysThirteen(h http.Handler) http.Handler {
	return rewritesMoves(h, func(mv map[string]any) any {
		mv["card"] = 13
		return mv
	})
}

// TestBrokenAgentsFailTheirRule: each broken agent endpoint, pushed to live
// over loopback, fails with the rule it breaks named.
func TestBrokenAgentsFailTheirRule(t *testing.T) {
	t.Parallel()
	catchBrokenAgents(t, brokenAgents())
}

// TestHealthyAgentPassesLive: the reference agent, checked live at its
// endpoint.url with --secret, passes every check.
func TestHealthyAgentPassesLive(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(agent.New(agent.Options{}))
	defer srv.Close()
	rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "", pushSettings)
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}

// TestPushNeedsTheSecretAgainstALiveAgent: without --secret a live run is a
// harness error, never a verdict on the agent.
func TestPushNeedsTheSecretAgainstALiveAgent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(agent.New(agent.Options{}))
	defer srv.Close()
	rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "PYYOL-PUSH-TURN", nil)
	if rep.ExitCode() != 2 {
		t.Errorf("exit %d, want 2: %v", rep.ExitCode(), failedRules(rep))
	}
}

// catchBrokenAgents pushes matches live over loopback to each broken agent
// endpoint, with the reference's development secret, and requires a fail
// naming the rule it breaks.
func catchBrokenAgents(t *testing.T, cases []struct {
	rule  string
	agent http.Handler
}) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(c.agent)
			defer srv.Close()
			rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", c.rule, pushSettings)
			if rep.ExitCode() != 1 || !rep.Failed(c.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), c.rule, failedRules(rep))
			}
		})
	}
}

// TestARedirectingAgentIsOneHarnessError: an agent endpoint answering 307
// is a harness error naming its Location, never a failure of the rules
// the checks were about to look at (issue: 15 rule FAILs, exit 1).
func TestARedirectingAgentIsOneHarnessError(t *testing.T) {
	t.Parallel()
	redirect := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]string{"status": "healthy", "agent": "redirector", "version": "1"})
			return
		}
		http.Redirect(w, r, "http://127.0.0.1:9/elsewhere", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(redirect)
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Push()}, Target: srv.URL + "/turn",
		Settings: suite.Settings{"secret": "s"}, Checks: -1})
	require.NoError(t, err)
	assert.NotEqual(t, 1, rep.ExitCode(), "a redirect is not a rule failure")
	errs := 0
	for _, res := range rep.Results {
		assert.NotEqual(t, verdict.Fail, res.Status, "%s failed on a redirect: %s", res.Name, res.Message)
		if res.Status == verdict.Error {
			errs++
			// One root cause, told the same way in every check it ended.
			assert.Contains(t, res.Message, "answered 307 redirecting to http://127.0.0.1:9/elsewhere", "%s does not name the Location", res.Name)
		}
	}
	assert.Positive(t, errs, "no check names the redirect")
	assert.Equal(t, 2, rep.ExitCode())
}
