package quota_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/verdict"
)

func TestPlanSpendsTheDocumentedLimitsLessWhatToKeep(t *testing.T) {
	p := quota.NewPlanner(quota.Limits{Identities: 200, Runs: 30, Writes: 1000}, quota.Limits{Identities: 199, Runs: 2}, 400)
	if got, want := p.Plan(), (quota.Limits{Identities: 1, Runs: 28, Writes: 400, AllWrites: -1}); got != want {
		t.Fatalf("plan %+v, want %+v", got, want)
	}
	want := "plan: 1 identity (200 a day documented), 28 runs (30 a day documented), 400 writes (1000 a day documented; --max-writes 400)"
	if p.String() != want {
		t.Errorf("String() = %q\nwant        %q", p.String(), want)
	}
}

// A plan of a contract that documents only one run's limits (Iyra) prints
// them and spends nothing against them.
func TestPerRunLimitsArePrintedNotSpent(t *testing.T) {
	p := quota.NewAgentPlanner(quota.Limits{RunSteps: 9, RunSeconds: 180}, quota.Limits{}, 0, 3)
	want := "plan: 3 identities (no documented limit; --max-agents 3), unlimited runs (no documented limit), " +
		"unlimited writes (no documented limit), runs of at most 9 steps and 180 seconds (documented)"
	if p.String() != want {
		t.Errorf("String() = %q\nwant        %q", p.String(), want)
	}
	for i := 0; i < 20; i++ {
		if p.Run() != nil || p.Write() != nil {
			t.Fatal("a per-run limit bounded the plan's runs or writes")
		}
	}
}

func TestSpentPlanSkipsNeverFails(t *testing.T) {
	p := quota.NewPlanner(quota.Limits{Runs: 2}, quota.Limits{}, 0)
	for i := 0; i < 2; i++ {
		if err := p.Run(); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	err := p.Run()
	var skip *verdict.Skipped
	if !errors.As(err, &skip) {
		t.Fatalf("third run: %v, want a skip", err)
	}
	if p.Used().Runs != 2 {
		t.Errorf("used %d runs, want 2: a refused take spends nothing", p.Used().Runs)
	}
	if err := p.Write(); err != nil {
		t.Errorf("writes are undocumented and unbounded: %v", err)
	}
}

func TestPlannerIsSafeForConcurrentUse(t *testing.T) {
	p := quota.NewPlanner(quota.Limits{Writes: 50}, quota.Limits{}, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.Write() == nil {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if granted != 50 {
		t.Errorf("granted %d writes of a plan of 50", granted)
	}
}

func TestAgentPlanSpendsPerIdentityWithinTheServerWideWrites(t *testing.T) {
	documented := quota.Limits{Identities: 200, Runs: 30, Writes: 1000, AllWrites: 3000}
	keep := quota.Limits{Identities: 100, Runs: 2, Writes: 100, AllWrites: 600}
	p := quota.NewAgentPlanner(documented, keep, 0, 4)
	if got, want := p.Total(), (quota.Limits{Identities: 4, Runs: 112, Writes: 2400, AllWrites: 2400}); got != want {
		t.Fatalf("total %+v, want %+v", got, want)
	}
	if got := p.Plan(); got.Runs != 28 || got.Writes != 900 {
		t.Errorf("per identity %+v, want 28 runs and 900 writes", got)
	}
	want := "plan: 4 identities (200 a day documented; --max-agents 4), 112 runs (28 per identity; 30 a day documented), " +
		"2400 writes (900 per identity; 1000 a day documented; 3000 a day for all agents)"
	if p.String() != want {
		t.Errorf("String() = %q\nwant        %q", p.String(), want)
	}
	capped := quota.NewAgentPlanner(documented, keep, 150, 4)
	if got := capped.Total().Writes; got != 150 {
		t.Errorf("--max-writes 150: %d writes planned", got)
	}
	if got := capped.Plan().Writes; got != 150 {
		t.Errorf("--max-writes 150: %d writes per identity", got)
	}
}
