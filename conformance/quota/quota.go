// Package quota plans what a run may spend of a live deployment's
// documented daily limits: identities (agents, keys) to register, runs or
// sessions to start, and writes. One planner serves every protocol, so no
// protocol invents its own pool; a spent plan skips the checks past it
// (never fails them), because running out of quota is not the target's
// fault.
package quota

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Limits counts identities, runs and writes. As documented limits a zero
// means the contract states none; as what to keep, a zero keeps nothing.
// Runs and Writes are what one identity may spend (a per-key or per-agent
// daily limit), AllWrites what every identity together may spend
// server-wide; a plan of several identities spends Runs and Writes per
// identity, never more than AllWrites in all. RunSteps and RunSeconds are
// what one run (a session) may take, as documented (Iyra's max_steps and
// max_duration_seconds): the target enforces them, the checks test them,
// so the plan only prints them and spends nothing against them.
type Limits struct {
	Identities int
	Runs       int
	Writes     int
	AllWrites  int
	RunSteps   int
	RunSeconds int
}

// Planner hands out a run's allowance of identities, runs and writes. It is
// safe for concurrent use.
type Planner struct {
	documented Limits
	plan       Limits // -1: unlimited; Runs and Writes per identity
	total      Limits // what the whole plan spends; -1: unlimited
	maxWrites  int
	maxIDs     int

	mu   sync.Mutex
	used Limits
}

// NewPlanner plans to spend the documented limits less what to keep for the
// deployment's own agents, and no more than maxWrites writes (the run's
// --max-writes; 0 means not set). An undocumented limit is unlimited unless
// maxWrites bounds it. The plan uses one identity; WithIdentities lets it
// use more.
func NewPlanner(documented, keep Limits, maxWrites int) *Planner {
	return NewAgentPlanner(documented, keep, maxWrites, 1)
}

// NewAgentPlanner is NewPlanner for a plan of up to maxIdentities
// identities (the run's --max-agents; at least one), each spending the
// per-identity runs and writes, all of them together no more than the
// server-wide writes less what to keep.
func NewAgentPlanner(documented, keep Limits, maxWrites, maxIdentities int) *Planner {
	maxIdentities = max(maxIdentities, 1)
	plan := Limits{
		Identities: allowance(documented.Identities, keep.Identities),
		Runs:       allowance(documented.Runs, keep.Runs),
		Writes:     allowance(documented.Writes, keep.Writes),
		AllWrites:  allowance(documented.AllWrites, keep.AllWrites),
	}
	if plan.Identities < 0 || plan.Identities > maxIdentities {
		plan.Identities = maxIdentities
	}
	total := Limits{Identities: plan.Identities, Runs: times(plan.Runs, plan.Identities),
		Writes: times(plan.Writes, plan.Identities)}
	total.Writes = lowest(total.Writes, plan.AllWrites)
	if maxWrites > 0 {
		total.Writes = lowest(total.Writes, maxWrites)
	}
	if total.Writes >= 0 {
		plan.Writes = lowest(plan.Writes, total.Writes)
	}
	total.AllWrites = total.Writes
	return &Planner{documented: documented, plan: plan, total: total, maxWrites: maxWrites, maxIDs: maxIdentities}
}

// times multiplies a per-identity allowance by n identities (-1 stays).
func times(each, n int) int {
	if each < 0 {
		return -1
	}
	return each * n
}

// lowest is the smaller of two allowances, -1 meaning unlimited.
func lowest(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// allowance is documented less keep, never below zero; -1 when undocumented.
func allowance(documented, keep int) int {
	if documented <= 0 {
		return -1
	}
	return max(documented-keep, 0)
}

// Plan returns what the planner will spend (-1: unlimited): identities, and
// runs and writes per identity.
func (p *Planner) Plan() Limits { return p.plan }

// Total returns what the whole plan spends over all its identities (-1:
// unlimited).
func (p *Planner) Total() Limits { return p.total }

// Used returns what was spent so far.
func (p *Planner) Used() Limits {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

// Identity takes one identity from the plan, or returns a skip.
func (p *Planner) Identity() error {
	return p.take("identities", p.total.Identities, &p.used.Identities)
}

// Run takes one run from the plan (all identities together), or returns a
// skip; the caller keeps each identity under Plan().Runs.
func (p *Planner) Run() error { return p.take("runs", p.total.Runs, &p.used.Runs) }

// Write takes one write from the plan (all identities together), or
// returns a skip; the caller keeps each identity under Plan().Writes.
func (p *Planner) Write() error { return p.take("writes", p.total.Writes, &p.used.Writes) }

// take spends one unit of kind if the plan allows it.
func (p *Planner) take(kind string, planned int, used *int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if planned >= 0 && *used >= planned {
		return verdict.Skipf("quota plan spent: %d %s planned (%s)", planned, kind, p.describe())
	}
	*used++
	return nil
}

// String prints the plan, e.g. "plan: 1 identity (200 a day documented),
// 28 runs (30 a day documented), 400 writes (1000 a day documented;
// --max-writes 400)"; a plan of several identities says what each spends.
func (p *Planner) String() string { return "plan: " + p.describe() }

func (p *Planner) describe() string {
	ids := item(p.total.Identities, p.documented.Identities, "identity", "identities", "")
	if p.maxIDs > 1 {
		ids = strings.TrimSuffix(ids, ")") + fmt.Sprintf("; --max-agents %d)", p.maxIDs)
	}
	runs := item(p.total.Runs, p.documented.Runs, "run", "runs", p.perIdentity(p.plan.Runs))
	writes := item(p.total.Writes, p.documented.Writes, "write", "writes", p.perIdentity(p.plan.Writes))
	if p.documented.AllWrites > 0 {
		writes = strings.TrimSuffix(writes, ")") + fmt.Sprintf("; %d a day for all agents)", p.documented.AllWrites)
	}
	if p.maxWrites > 0 {
		writes = strings.TrimSuffix(writes, ")") + fmt.Sprintf("; --max-writes %d)", p.maxWrites)
	}
	parts := []string{ids, runs, writes}
	if each := perRun(p.documented); each != "" {
		parts = append(parts, each)
	}
	return strings.Join(parts, ", ")
}

// perRun prints the documented limits of one run, "" when none: "runs of
// at most 9 steps and 180 seconds (documented)".
func perRun(documented Limits) string {
	var limits []string
	if documented.RunSteps > 0 {
		limits = append(limits, fmt.Sprintf("%d steps", documented.RunSteps))
	}
	if documented.RunSeconds > 0 {
		limits = append(limits, fmt.Sprintf("%d seconds", documented.RunSeconds))
	}
	if len(limits) == 0 {
		return ""
	}
	return "runs of at most " + strings.Join(limits, " and ") + " (documented)"
}

// perIdentity notes what each identity spends when there are several.
func (p *Planner) perIdentity(each int) string {
	if p.total.Identities <= 1 || each < 0 {
		return ""
	}
	return fmt.Sprintf("%d per identity", each)
}

func item(planned, documented int, one, many, note string) string {
	name := many
	if planned == 1 {
		name = one
	}
	amount := "unlimited"
	if planned >= 0 {
		amount = fmt.Sprint(planned)
	}
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	if documented > 0 {
		notes = append(notes, fmt.Sprintf("%d a day documented", documented))
	} else {
		notes = append(notes, "no documented limit")
	}
	return fmt.Sprintf("%s %s (%s)", amount, name, strings.Join(notes, "; "))
}
