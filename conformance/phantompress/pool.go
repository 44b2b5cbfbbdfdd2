package phantompress

import (
	"fmt"
	"slices"
	"sync"

	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// pool shares the runner's identities across scenarios. Against the
// embedded reference it moves the clock past 00:00 JST before a quota
// would run out; against a live deployment it spends the shared quota
// plan (LiveQuota): up to --max-agents agents, each kept under the seed's
// per-key runs and per-agent writes, all of them under the server-wide
// writes. Once the plan is spent, checks skip (never fail).
type pool struct {
	mu     sync.Mutex
	cur    *identity
	agents int // pooled agents registered on a live target
	// throwaways are the keys of agents --exhaust-quotas spends whole;
	// their writes are the exhaust run's, not the plan's.
	throwaways map[string]bool
	// exhaustedWrites is the throwaway whose writes are spent (exhaust.go).
	exhaustMu       sync.Mutex
	exhaustedWrites *exhausted
	plan            *quota.Planner
	writes          int // writes of the run (live) or since the last reset (embedded)
	regs            int
	n               int
	// propRuns counts the runs property checks started; propFailed is set
	// once a property check failed (see newMachine).
	propRuns   int
	propFailed bool
	// played is the shared played-through run (see playedRun).
	playMu sync.Mutex
	played *sharedRun
	// desk is the shared run of scenarios that need an active run but not
	// a fresh one (see activeRun).
	desk *sharedRun
}

// Headroom the pool keeps below the seed's limits on the embedded
// reference, where the clock can cross a reset.
const (
	runsPerIdentity   = 25
	writesPerIdentity = 900
	writesBeforeReset = 2500
	regsBeforeReset   = 150
	// livePropertyRuns caps the runs the property checks (and their
	// shrinking) may start on a live deployment: the default 20 checks and
	// a little shrinking, all within the plan's runs.
	livePropertyRuns = 30
)

// LiveQuota is what a live run may spend of the seed's daily limits
// (runs_per_day_per_key 30, writes_per_day_per_agent 1000,
// writes_per_day_all_agents 3000, register_per_day 200), leaving the
// deployment's own agents the rest: 28 runs and 900 writes per agent,
// at most 1800 writes in all, so that --exhaust-quotas (one throwaway
// agent's 1000 writes) still fits under the 3000 of all agents.
var LiveQuota = &suite.QuotaPlan{
	Documented: quota.Limits{Identities: 200, Runs: 30, Writes: 1000, AllWrites: 3000},
	Keep:       quota.Limits{Identities: 150, Runs: 2, Writes: 100, AllWrites: 1200},
	NotLive: map[string]string{
		"PP-QUOTA-RESET":      "a daily reset at 00:00 JST: a live run cannot wait for the next day (with --exhaust-quotas it checks the reset a 429 announces)",
		"PP-QUOTA-503":        "needs a quota store outage, which only the embedded reference can cause",
		"PP-QUOTA-WRITES-ALL": "would spend the whole deployment's 3000 writes a day, every agent's",
		"PP-QUOTA-REGISTER":   "would spend the whole deployment's 200 registrations a day",
	},
	// --exhaust-quotas spends one throwaway agent's 1000 writes and
	// another's 30 runs (exhaust.go).
	Exhaust: []string{"PP-QUOTA-WRITES-AGENT", "PP-QUOTA-RUNS", "PP-QUOTA-429", "PP-STATUS-NOT-WRITE"},
}

func poolOf(env *suite.Env) *pool {
	// The planner first: Shared.Once does not nest.
	plan, err := env.Quota(LiveQuota.Documented, LiveQuota.Keep)
	if err != nil { // an Env made outside a run: plan alone
		plan = quota.NewPlanner(LiveQuota.Documented, LiveQuota.Keep, env.MaxWrites)
	}
	v, _ := env.Shared.Once("phantom-press/pool", func() (any, error) { return &pool{plan: plan}, nil })
	return v.(*pool)
}

// full reports whether a live agent has spent its share of the plan.
func (p *pool) full(id *identity) bool {
	each := p.plan.Plan()
	return id.runs >= each.Runs || (each.Writes >= 0 && id.writes >= each.Writes)
}

// spent reports, for a live target, why no further run may be started.
func (p *pool) spent(env *suite.Env) string {
	total, used := p.plan.Total(), p.plan.Used()
	switch {
	case !env.Live():
		return ""
	case total.Writes >= 0 && used.Writes >= total.Writes:
		return fmt.Sprintf("the live plan's %d writes are spent (%s)", total.Writes, p.plan)
	case total.Runs >= 0 && used.Runs >= total.Runs:
		return fmt.Sprintf("the live plan's %d runs are spent (%s)", total.Runs, p.plan)
	case p.cur != nil && p.full(p.cur) && p.agents >= total.Identities:
		return fmt.Sprintf("the plan's %d agents have spent their share of the seed's per-key limits (%s)", p.agents, p.plan)
	}
	return ""
}

// controlledLive skips a @control scenario on a live target before its
// first step, so one that needs the embedded reference spends nothing of
// the plan (not even its "Given a fresh run"); with --exhaust-quotas the
// scenarios of LiveQuota.Exhaust run.
func (w *world) controlledLive() error {
	if !w.env.Live() || !slices.Contains(w.Tags, "control") {
		return nil
	}
	// An @exhaust scenario, or one of a rule --exhaust-quotas reaches
	// live (LiveQuota.Exhaust), runs with that flag (suite/liveplan.go).
	exhausts := slices.Contains(w.Tags, "exhaust") || slices.ContainsFunc(LiveQuota.Exhaust, func(id string) bool { return slices.Contains(w.Tags, id) })
	if w.env.ExhaustQuotas && exhausts {
		return nil
	}
	if exhausts {
		return verdict.Skipf("spends a throwaway agent's whole daily allowance: run with --exhaust-quotas (staging deployments)")
	}
	return suite.ErrNoControl
}
