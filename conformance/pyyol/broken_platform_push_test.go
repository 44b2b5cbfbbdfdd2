package pyyol_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// platformSettings are the pyyol-platform tests' flags: a short match wait.
var platformSettings = suite.Settings{"match-wait": "60s"}

// endlessMatchSettings are the flags for a platform that never sends
// /game-end: the run waits out the whole --match-wait for it, and the
// reference's push match is over within a few seconds (after the kit's
// 3 s practice ask), so 20 s still leaves the match several times the
// time it needs on a loaded machine while not idling for a minute.
var endlessMatchSettings = suite.Settings{"match-wait": "20s"}

// brokenPlatformSettings are the flags the broken platform with tamper is
// checked under.
func brokenPlatformSettings(tamper server.Tamper) suite.Settings {
	switch tamper {
	case server.NoGameEnd:
		return endlessMatchSettings
	case server.CallsLoopback:
		return suite.Settings{"match-wait": "60s", "production-platform": "true"}
	}
	return platformSettings
}

// brokenPlatform is the reference platform with tamper: a production one
// for the tamper that breaks only a production platform's duty.
func brokenPlatform(tamper server.Tamper) *server.Gateway {
	return server.New(server.Options{Tamper: tamper, Config: skeleton.Config{Production: tamper == server.CallsLoopback}})
}

// brokenPushPlatforms lists, for every MUST rule of pyyol-platform, a
// reference platform whose push client breaks it.
func brokenPushPlatforms() []struct {
	rule   string
	tamper server.Tamper
} {
	return []struct {
		rule   string
		tamper server.Tamper
	}{
		{"PYYOL-PLAT-SIGN-PATH", server.SignsQuery},
		{"PYYOL-PLAT-NONCE", server.SkipsNonce},
		{"PYYOL-PLAT-HEADERS", server.SkipsNonce},
		{"PYYOL-PLAT-NONCE", server.ReusesNonce},
		{"PYYOL-PUSH-PROTOCOL-FIELD", server.OmitsProtocol},
		{"PYYOL-PLAT-NO-REDIRECT", server.FollowsRedirects},
		{"PYYOL-PLAT-BOUNDED-BODY", server.ReadsUnbounded},
		{"PYYOL-PLAT-ONE-WAY", server.StallsOnEvents},
		{"PYYOL-PLAT-SIGNED", server.SignsWrongPath},
		{"PYYOL-PLAT-SIBLINGS", server.SiblingsUnderTurn},
		{"PYYOL-PLAT-TURN-TIMEOUT", server.IgnoresRuntimeTimeout},
		{"PYYOL-PLAT-TURN-TIMEOUT", server.ShortTurnTimeout},
		{"PYYOL-PLAT-FALLBACK", server.FallbackHighest},
		{"PYYOL-PLAT-ATTEMPT-TIMEOUT", server.NoAttemptTimeout},
		{"PYYOL-PLAT-BEARER", server.NoBearer},
		{"PYYOL-PLAT-TIMESTAMP", server.LocalTimestamp},
		{"PYYOL-PLAT-HEALTH", server.SignsHealth},
		{"PYYOL-PLAT-INITIALIZE", server.NoInitialize},
		{"PYYOL-PLAT-TURN-BODY", server.ViewlessTurns},
		{"PYYOL-PLAT-EVENT-BODY", server.BareEvents},
		{"PYYOL-PLAT-GAME-END-BODY", server.NoGameEnd},
		{"PYYOL-PLAT-SSRF", server.AcceptsPrivateEndpoints},
		{"PYYOL-PLAT-SSRF", server.CallsLoopback},
	}
}

// TestBrokenPushPlatformsFailTheirRule: each broken reference platform,
// served over loopback and checked live with `run --target`, fails with
// the rule its push client breaks named.
func TestBrokenPushPlatformsFailTheirRule(t *testing.T) {
	early := startWaitingPlatforms(t) // before t.Parallel, so they start now
	t.Parallel()
	for _, c := range brokenPushPlatforms() {
		t.Run(string(c.tamper)+"/"+c.rule, func(t *testing.T) {
			t.Parallel()
			rep := early.report(t, c.tamper, c.rule)
			if rep == nil {
				srv := httptest.NewServer(brokenPlatform(c.tamper))
				defer srv.Close()
				rep = runLive(t, pyyol.Platform(), srv.URL+server.BasePath, c.rule, brokenPlatformSettings(c.tamper))
			}
			if rep.ExitCode() != 1 || !rep.Failed(c.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), c.rule, failedRules(rep))
			}
		})
	}
}

// waitingPlatforms are the broken platforms whose runs are nearly all
// waiting: the kit holds the hung turn for its whole hold (20 s) and waits
// the whole --match-wait for a /game-end that never comes. Queued as
// parallel subtests they would start only once the CPU-bound cases ahead
// of them freed a slot and then idle at the end of the package; started
// with the test binary instead, their waits overlap everything else.
var waitingPlatforms = []server.Tamper{server.NoAttemptTimeout, server.NoGameEnd}

// earlyRun is one broken platform's run, started ahead of its subtest.
type earlyRun struct {
	done chan struct{}
	rep  *verdict.Report
	err  error
}

// earlyRuns are the waiting platforms' runs by case (tamper/rule).
type earlyRuns map[string]*earlyRun

// startWaitingPlatforms starts the run of every waiting platform's case in
// the background, each against its own server, with the same rule and
// settings its subtest would use.
func startWaitingPlatforms(t *testing.T) earlyRuns {
	runs := earlyRuns{}
	for _, c := range brokenPushPlatforms() {
		if !slices.Contains(waitingPlatforms, c.tamper) {
			continue
		}
		r := &earlyRun{done: make(chan struct{})}
		runs[string(c.tamper)+"/"+c.rule] = r
		cases := t.TempDir()
		go func() {
			defer close(r.done)
			srv := httptest.NewServer(brokenPlatform(c.tamper))
			defer srv.Close()
			r.rep, r.err = suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Platform()},
				Target: srv.URL + server.BasePath, Rules: ruleList(c.rule), Seed: 7, NoProperties: true, CaseDir: cases,
				Settings: brokenPlatformSettings(c.tamper)}.StoppingAt(c.rule))
		}()
	}
	return runs
}

// report waits for the early run of the case (tamper, rule) and returns
// its report, or nil when that case was not started early.
func (runs earlyRuns) report(t *testing.T, tamper server.Tamper, rule string) *verdict.Report {
	t.Helper()
	r, ok := runs[string(tamper)+"/"+rule]
	if !ok {
		return nil
	}
	<-r.done
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.rep
}

// TestFaithfulPushPlatformPassesLive: the reference platform, checked live
// over loopback, passes every pyyol-platform check. The only skips are
// the SSRF probes of an address class this machine holds none of, and
// the loopback one a development platform is not held to; at least one
// SSRF probe passes.
func TestFaithfulPushPlatformPassesLive(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	rep := runLive(t, pyyol.Platform(), srv.URL+server.BasePath, "", platformSettings)
	if rep.ExitCode() != 0 {
		t.Fatalf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
	probed := 0
	for _, r := range rep.Results {
		switch {
		case slices.Contains(r.Rules, "PYYOL-PLAT-SSRF") && r.Status == verdict.Pass:
			probed++
		case slices.Contains(r.Rules, "PYYOL-PLAT-SSRF") && r.Status == verdict.Skip && ssrfSkipAllowed(r.Message):
		case r.Status != verdict.Pass:
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		}
	}
	if probed == 0 {
		t.Error("no SSRF probe was decided: this machine has no private or link-local address?")
	}
}

// ssrfSkipAllowed reports the skips a faithful platform's SSRF probes may
// give: a class with no address here, or loopback on a dev platform.
func ssrfSkipAllowed(msg string) bool {
	return strings.Contains(msg, "this machine holds no") || strings.Contains(msg, "--production-platform")
}

// TestProductionPlatformIsHeldToLoopback: a production reference platform
// (serve --production), checked live with --production-platform, refuses
// the kit's loopback tripwire and passes that probe; the same probe skips
// against a development platform without the flag.
func TestProductionPlatformIsHeldToLoopback(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{Config: skeleton.Config{Production: true}}))
	defer srv.Close()
	rep := runLive(t, pyyol.Platform(), srv.URL+server.BasePath, "PYYOL-PLAT-SSRF",
		suite.Settings{"match-wait": "60s", "production-platform": "true"})
	if rep.ExitCode() != 0 {
		t.Fatalf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
	loopback := func(rep *verdict.Report) verdict.Status {
		for _, r := range rep.Results {
			if strings.Contains(r.Name, "loopback") {
				return r.Status
			}
		}
		return ""
	}
	if got := loopback(rep); got != verdict.Pass {
		t.Errorf("the loopback probe against a production platform: %s, want pass", got)
	}
	dev := httptest.NewServer(server.New(server.Options{}))
	defer dev.Close()
	if got := loopback(runLive(t, pyyol.Platform(), dev.URL+server.BasePath, "PYYOL-PLAT-SSRF", platformSettings)); got != verdict.Skip {
		t.Errorf("the loopback probe without --production-platform: %s, want skip", got)
	}
}

// TestSilentPlatformSkipsWithinMatchWait: a platform that verifies the
// kit's endpoint but never pushes a match makes every match check skip
// with the one reason, within --match-wait, and nothing fails.
func TestSilentPlatformSkipsWithinMatchWait(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{Tamper: server.NeverPushes}))
	defer srv.Close()
	start := time.Now()
	rep := runLive(t, pyyol.Platform(), srv.URL+server.BasePath, "", suite.Settings{"match-wait": "4s"})
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %v; --match-wait is 4s", d)
	}
	reasons := map[string]bool{}
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		case r.Status == verdict.Skip && slices.Contains(r.Rules, "PYYOL-PLAT-SSRF"):
			// the SSRF probes need no match: their skips have their own reasons
		case r.Status == verdict.Skip:
			reasons[r.Message] = true
		}
	}
	if len(reasons) != 1 {
		t.Fatalf("want one skip reason, got %v", reasons)
	}
	for m := range reasons {
		if !strings.Contains(m, "within --match-wait") {
			t.Errorf("skip reason %q does not name --match-wait", m)
		}
	}
}

// TestCallbackAddrIsWhereTheEndpointListens: with --callback-addr the
// kit's endpoint listens there and the manifest names it, so the platform
// pushes its match to that address.
func TestCallbackAddrIsWhereTheEndpointListens(t *testing.T) {
	t.Parallel()
	var pushedTo []string
	gw := server.New(server.Options{})
	srv := httptest.NewServer(gw)
	defer srv.Close()
	settings := suite.Settings{"match-wait": "60s", "callback-addr": "127.0.0.1:18955"}
	rep := runLive(t, pyyol.Platform(), srv.URL+server.BasePath, "PYYOL-PLAT-SIBLINGS", settings)
	if rep.ExitCode() != 0 {
		t.Fatalf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
	for _, r := range rep.Results {
		for _, x := range r.Transcript {
			if strings.Contains(x.URL, "/manifest") && strings.Contains(x.ReqBody, "127.0.0.1:18955/kit-agent/turn") {
				pushedTo = append(pushedTo, x.URL)
			}
		}
	}
	if len(pushedTo) == 0 {
		t.Error("no manifest named the --callback-addr endpoint")
	}
}
