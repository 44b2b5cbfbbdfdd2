package iyra_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// lockedBuffer is a plan writer the test reads while the run goes on.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// planWatch serves the reference and notes, at the first write, what the
// plan said so far, and how many agents were verified.
type planWatch struct {
	next     http.Handler
	plan     *lockedBuffer
	mu       sync.Mutex
	atWrite  string
	wrote    bool
	verifies int
}

func (p *planWatch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		p.mu.Lock()
		if !p.wrote {
			p.wrote, p.atWrite = true, p.plan.String()
		}
		if strings.HasSuffix(r.URL.Path, "/agents/verify") {
			p.verifies++
		}
		p.mu.Unlock()
	}
	p.next.ServeHTTP(w, r)
}

// liveRun runs the checks of rules against the reference over loopback,
// as against a live deployment, with at most maxAgents identities.
func liveRun(t *testing.T, maxAgents int, rules ...string) (*verdict.Report, *planWatch) {
	t.Helper()
	watch := &planWatch{next: iyra.Reference(suite.ReferenceConfig{Seed: 5}), plan: &lockedBuffer{}}
	srv := httptest.NewServer(watch)
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
		Target: srv.URL, Seed: 5, Checks: -1, Rules: rules, MaxAgents: maxAgents, Plan: watch.plan})
	if err != nil {
		t.Fatal(err)
	}
	return rep, watch
}

// The live plan, printed before the first write, names the identities the
// run may register and the per-session limits the contract documents, as
// The Phantom Press's plan names its daily ones.
func TestLivePlanIsPrintedBeforeTheFirstWrite(t *testing.T) {
	t.Parallel()
	rep, watch := liveRun(t, 3, "IYRA-AUTH-BEARER")
	if rep.ExitCode() != 0 {
		t.Fatalf("exit %d against the reference", rep.ExitCode())
	}
	for _, want := range []string{"iyra live plan:",
		"plan: 3 identities (no documented limit; --max-agents 3), unlimited runs (no documented limit), unlimited writes " +
			"(no documented limit), runs of at most 9 steps and 180 seconds (documented)"} {
		if !strings.Contains(watch.atWrite, want) {
			t.Errorf("at the first write the plan did not say %q:\n%s", want, watch.atWrite)
		}
	}
}

// The identities the run plays as come from the plan: with one allowed,
// the run verifies one agent, and the checks that need another agent skip
// (never fail) naming the spent plan.
func TestIdentitiesComeFromThePlan(t *testing.T) {
	t.Parallel()
	rep, watch := liveRun(t, 1, "IYRA-AUTH-BEARER")
	if watch.verifies != 1 {
		t.Errorf("the run verified %d agents, want the plan's 1", watch.verifies)
	}
	skipped := 0
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		case r.Status == verdict.Skip && strings.Contains(r.Message, "quota plan spent"):
			skipped++
		}
	}
	if skipped == 0 {
		t.Error("no check needing another agent skipped on the spent plan")
	}
}
