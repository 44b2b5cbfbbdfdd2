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
type Limits struct {
	Identities int
	Runs       int
	Writes     int
}

// Planner hands out a run's allowance of identities, runs and writes. It is
// safe for concurrent use.
type Planner struct {
	documented Limits
	plan       Limits // -1: unlimited
	maxWrites  int

	mu   sync.Mutex
	used Limits
}

// NewPlanner plans to spend the documented limits less what to keep for the
// deployment's own agents, and no more than maxWrites writes (the run's
// --max-writes; 0 means not set). An undocumented limit is unlimited unless
// maxWrites bounds it.
func NewPlanner(documented, keep Limits, maxWrites int) *Planner {
	plan := Limits{
		Identities: allowance(documented.Identities, keep.Identities),
		Runs:       allowance(documented.Runs, keep.Runs),
		Writes:     allowance(documented.Writes, keep.Writes),
	}
	if maxWrites > 0 && (plan.Writes < 0 || maxWrites < plan.Writes) {
		plan.Writes = maxWrites
	}
	return &Planner{documented: documented, plan: plan, maxWrites: maxWrites}
}

// allowance is documented less keep, never below zero; -1 when undocumented.
func allowance(documented, keep int) int {
	if documented <= 0 {
		return -1
	}
	return max(documented-keep, 0)
}

// Plan returns what the planner will spend (-1: unlimited).
func (p *Planner) Plan() Limits { return p.plan }

// Used returns what was spent so far.
func (p *Planner) Used() Limits {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

// Identity takes one identity from the plan, or returns a skip.
func (p *Planner) Identity() error {
	return p.take("identities", p.plan.Identities, &p.used.Identities)
}

// Run takes one run from the plan, or returns a skip.
func (p *Planner) Run() error { return p.take("runs", p.plan.Runs, &p.used.Runs) }

// Write takes one write from the plan, or returns a skip.
func (p *Planner) Write() error { return p.take("writes", p.plan.Writes, &p.used.Writes) }

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
// 28 runs (30 a day), 400 writes (1000 a day; --max-writes 400)".
func (p *Planner) String() string { return "plan: " + p.describe() }

func (p *Planner) describe() string {
	parts := []string{
		item(p.plan.Identities, p.documented.Identities, "identity", "identities", 0),
		item(p.plan.Runs, p.documented.Runs, "run", "runs", 0),
		item(p.plan.Writes, p.documented.Writes, "write", "writes", p.maxWrites),
	}
	return strings.Join(parts, ", ")
}

func item(planned, documented int, one, many string, maxWrites int) string {
	name := many
	if planned == 1 {
		name = one
	}
	amount := "unlimited"
	if planned >= 0 {
		amount = fmt.Sprint(planned)
	}
	var notes []string
	if documented > 0 {
		notes = append(notes, fmt.Sprintf("%d a day documented", documented))
	} else {
		notes = append(notes, "no documented limit")
	}
	if maxWrites > 0 {
		notes = append(notes, fmt.Sprintf("--max-writes %d", maxWrites))
	}
	return fmt.Sprintf("%s %s (%s)", amount, name, strings.Join(notes, "; "))
}
