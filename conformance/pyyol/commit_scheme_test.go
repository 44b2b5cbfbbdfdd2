package pyyol_test

import (
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// ownScheme commits to the prize order with a scheme of the gateway's own
// (not sha256 of the revealed seed): a REFERENCE departure only. With leak
// set, match_created also hands out the prize order the match will draw,
// which breaks the secrecy PYYOL-GOOF-SHUFFLED demands whatever the
// scheme.
func ownScheme(leak []any) server.Options {
	return server.Options{TurnTimeout: 600 * time.Millisecond, Rewrite: set("event", "match_created", func(f map[string]any) {
		p := payload(f)
		p["commitment"] = sha([]byte("the gateway's own commitment scheme"))
		if leak != nil {
			p["prize_order"] = leak
		}
	})}
}

// drawnOrder runs the check once against ownScheme without a leak and
// returns the prize order its match drew (game_end's history): a gateway
// with the same options draws the same order for the same run.
func drawnOrder(t *testing.T) []any {
	t.Helper()
	var mu sync.Mutex
	var order []any
	opts := ownScheme(nil)
	rewrite := opts.Rewrite.Edit
	opts.Rewrite = server.EveryFrame(func(f map[string]any) []map[string]any {
		if f["t"] == "game_end" {
			mu.Lock()
			order = order[:0]
			for _, r := range ints(result(f)["history"]) {
				order = append(order, r.(map[string]any)["prize"])
			}
			mu.Unlock()
		}
		return rewrite(f)
	})
	runCommitment(t, opts)
	mu.Lock()
	defer mu.Unlock()
	if len(order) < 3 {
		t.Fatalf("the match drew %v", order)
	}
	return order
}

func runCommitment(t *testing.T, opts server.Options) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(server.New(opts))
	defer srv.Close()
	return runLive(t, pyyol.Gateway(), srv.URL, "PYYOL-GOOF-SHUFFLED", gatewaySettings)
}

// TestOwnCommitSchemeOnlyWarns: a gateway with its own commitment scheme
// fails nothing, nor does one listing the prizes as a sorted set (public
// knowledge, not the order); the scheme is a warning naming the reference
// choice.
func TestOwnCommitSchemeOnlyWarns(t *testing.T) {
	t.Parallel()
	for name, leak := range map[string][]any{"no list": nil, "a sorted list": {13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := runCommitment(t, ownScheme(leak))
			warned := false
			for _, r := range rep.Results {
				if r.Status == verdict.Fail || r.Status == verdict.Error {
					t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
				}
				warned = warned || (r.Status == verdict.Warn && strings.HasPrefix(r.Message, "PYYOL-REF-COMMIT-SCHEME"))
			}
			if !warned {
				t.Errorf("the own scheme was not reported: %v", failedRules(rep))
			}
		})
	}
}

// TestOwnCommitSchemeNeverHidesALeak: the same gateway leaking the prize
// order before the match ends fails PYYOL-GOOF-SHUFFLED: the scheme
// warning found on the way does not end the check first.
func TestOwnCommitSchemeNeverHidesALeak(t *testing.T) {
	t.Parallel()
	rep := runCommitment(t, ownScheme(drawnOrder(t)))
	if rep.ExitCode() != 1 || !rep.Failed("PYYOL-GOOF-SHUFFLED") {
		t.Errorf("exit %d; want a fail naming PYYOL-GOOF-SHUFFLED; got %v", rep.ExitCode(), failedRules(rep))
	}
}
