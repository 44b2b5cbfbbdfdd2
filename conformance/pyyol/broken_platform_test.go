package pyyol_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/pyyol/stakes"
)

// onMethod limits a test-side answer to one method.
func onMethod(method string, wrap func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		wrapped := wrap(h)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == method {
				wrapped.ServeHTTP(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
}

// brokenPlatforms lists, for every MUST rule of the publish flow, the
// stake tiers and ranked play, a platform that breaks it.
func brokenPlatforms() []struct {
	rule string
	h    http.Handler
} {
	gw := func(o server.Options) http.Handler { o.TurnTimeout = 600 * time.Millisecond; return server.New(o) }
	tampered := func(t server.Tamper) http.Handler { return gw(server.Options{Tamper: t}) }
	skips := func(field string) http.Handler { return gw(server.Options{SkipField: field}) }
	out := []struct {
		rule string
		h    http.Handler
	}{
		{"PYYOL-MANIFEST-FORMAT", tampered(server.RejectsYAML)},
		{"PYYOL-MANIFEST-CAMELCASE", tampered(server.AcceptsSnakeCase)},
		{"PYYOL-MANIFEST-SUBMIT", onMethod("POST", answers("/manifest", http.StatusCreated, map[string]string{"status": "submitted"}))(gw(server.Options{}))},
		{"PYYOL-MANIFEST-SECRET", answers("/endpoint-secret", http.StatusInternalServerError, map[string]string{"error": "boom"})(gw(server.Options{}))},
		{"PYYOL-MANIFEST-VERIFY", answers("/verify", http.StatusOK, map[string]bool{"verified": true})(gw(server.Options{}))},
		{"PYYOL-MANIFEST-VERIFY-HEALTH", tampered(server.VerifiesAnything)},
		{"PYYOL-MANIFEST-VERIFY-HANDSHAKE", tampered(server.VerifiesAnything)},
		{"PYYOL-MANIFEST-VERIFY-GAMES", tampered(server.VerifiesAnything)},
		{"PYYOL-MANIFEST-PLATFORM-SIGNS", tampered(server.SignsWrongPath)},
		{"PYYOL-STAKES-PUBLIC", tampered(server.ShowsDisabledTiers)},
		{"PYYOL-STAKES-ADMIN", onMethod("PUT", answers("/admin/games/goofspiel/stakes", http.StatusOK, map[string]any{"tiers": stakes.Default()}))(gw(server.Options{}))},
		{"PYYOL-STAKES-ADMIN-AUTH", tampered(server.OpenAdmin)},
		{"PYYOL-STAKES-POSITIVE", tampered(server.AcceptsAnyTiers)},
		{"PYYOL-STAKES-UNIQUE", tampered(server.AcceptsAnyTiers)},
		{"PYYOL-STAKES-INCREASING", tampered(server.AcceptsAnyTiers)},
		{"PYYOL-RANKED-CERTIFIED", tampered(server.CertifiesAnyone)},
		{"PYYOL-RANKED-TIER", onMethod("POST", answers("/queue", http.StatusAccepted, map[string]any{"queued": true}))(gw(server.Options{}))},
		{"PYYOL-STAKES-LIMITS", tampered(server.IgnoresLimits)},
		{"PYYOL-STAKES-SETTLEMENT", tampered(server.KeepsTieStakes)},
		{"PYYOL-STAKES-LIMITS", tampered(server.StrictLimits)},
		{"PYYOL-STAKES-LOSS-CAPS", tampered(server.IgnoresLossCaps)},
		{"PYYOL-STAKES-COOLDOWN", tampered(server.IgnoresCooldown)},
		{"PYYOL-STAKES-CONCURRENT", tampered(server.IgnoresConcurrency)},
		{"PYYOL-SANDBOX-NO-STAKES", tampered(server.StakesPractice)},
		{"PYYOL-WS-DASHBOARD-JWT", tampered(server.RejectsDashboardJWT)},
	}
	for _, field := range []string{"manifestVersion", "agent.name", "agent.version", "agent.visibility", "developer.name", "games",
		"endpoint.url", "endpoint.authentication", "runtime.timeout", "runtime.maxMemory", "sdk.language", "contact.email", "model"} {
		rule := "PYYOL-MANIFEST-" + map[string]string{"manifestVersion": "VERSION", "agent.name": "AGENT-NAME", "agent.version": "AGENT-VERSION",
			"agent.visibility": "VISIBILITY", "developer.name": "DEVELOPER", "games": "GAMES", "endpoint.url": "ENDPOINT-URL",
			"endpoint.authentication": "AUTHENTICATION", "runtime.timeout": "TIMEOUT", "runtime.maxMemory": "MAX-MEMORY",
			"sdk.language": "SDK-LANGUAGE", "contact.email": "EMAIL", "model": "MODEL"}[field]
		out = append(out, struct {
			rule string
			h    http.Handler
		}{rule, skips(field)})
	}
	return out
}

// TestBrokenPlatformsFailTheirRule: each broken platform, checked live
// over loopback with the admin token, fails with the rule it breaks named.
func TestBrokenPlatformsFailTheirRule(t *testing.T) {
	t.Parallel()
	settings := gatewaySettings.With("admin-token", server.AdminToken).With("tier-propagation", "1s")
	for _, c := range brokenPlatforms() {
		t.Run(strings.TrimPrefix(c.rule, "PYYOL-"), func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			rep := runLive(t, pyyol.Gateway(), srv.URL, c.rule, settings)
			if rep.ExitCode() != 1 || !rep.Failed(c.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), c.rule, failedRules(rep))
			}
		})
	}
}
