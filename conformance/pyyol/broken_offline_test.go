package pyyol_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// TestSilentAgentIsMarkedOffline: a --long live run keeps a registered
// socket silent; a gateway that closes it passes PYYOL-REF-OFFLINE, one
// that never marks it Offline is warned (a REFERENCE reading), never
// failed; the default live run skips the check naming --long.
func TestSilentAgentIsMarkedOffline(t *testing.T) {
	t.Parallel()
	settings := gatewaySettings.With("offline-wait", "3s")
	for _, c := range []struct {
		name string
		opts server.Options
		long bool
		want verdict.Status
	}{
		{"closes the silent socket", server.Options{OfflineAfter: 500 * time.Millisecond, TurnTimeout: 100 * time.Millisecond}, true, verdict.Pass},
		{"never marks it Offline", server.Options{Tamper: server.NeverOffline, TurnTimeout: 100 * time.Millisecond}, true, verdict.Warn},
		{"without --long", server.Options{}, false, verdict.Skip},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(server.New(c.opts))
			defer srv.Close()
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
				Rules: []string{"PYYOL-REF-OFFLINE"}, Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: settings, Long: c.long})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 || rep.Results[0].Status != c.want {
				t.Fatalf("want one %s; got %v", c.want, failedRules(rep))
			}
			if c.want == verdict.Warn && rep.ExitCode() == 1 {
				t.Errorf("a REFERENCE reading failed the run")
			}
		})
	}
}

// notLongSkips drops the skips of @long scenarios, which a live run
// without --long leaves out by design (their own tests run them).
func notLongSkips(results []string) []string {
	var out []string
	for _, r := range results {
		if !strings.HasPrefix(r, "skip ") || !strings.Contains(r, "run with --long") {
			out = append(out, r)
		}
	}
	return out
}
