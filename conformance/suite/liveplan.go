package suite

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/features"
)

// DefaultMaxAgents is how many identities a live run registers at most
// when --max-agents is not set: enough to spread a default run under
// per-key limits, few enough to stay modest on a shared deployment.
const DefaultMaxAgents = 4

// QuotaPlan is what a protocol may spend of a live deployment's documented
// daily limits, and what it cannot check there.
type QuotaPlan struct {
	// Documented are the contract's daily limits (Runs and Writes per
	// identity, AllWrites server-wide), Keep what to leave the
	// deployment's own agents.
	Documented, Keep quota.Limits
	// NotLive names MUST rules no live run can check, with why (a daily
	// reset, a quota store outage); the plan prints them.
	NotLive map[string]string
	// Exhaust names the rules whose @control scenarios run on a live
	// target with --exhaust-quotas, spending throwaway identities' whole
	// daily allowance instead of the embedded reference's counters.
	Exhaust []string
}

// exhausts reports whether a live run with --exhaust-quotas runs the
// @control scenario s.
func (q *QuotaPlan) exhausts(s features.Scenario) bool {
	if q == nil {
		return false
	}
	for _, id := range q.Exhaust {
		if s.HasTag(id) {
			return true
		}
	}
	return false
}

// Tags a live plan reads: @control scenarios need the embedded reference's
// controls; @exhaust scenarios spend a whole daily allowance and run on a
// live target only with --exhaust-quotas; @long scenarios wait out a
// documented window in real time and run live only with --long.
const (
	tagControl = "@control"
	tagExhaust = "@exhaust"
	tagLong    = "@long"
)

// needsLong is the reason a @long scenario does not run on a live target
// without --long.
const needsLong = "waits out a documented window (TTL, grace, cooldown) in real time: run with --long"

// longSkipped reports whether s is a @long scenario this live run leaves
// out.
func (pr *protocolRun) longSkipped(s features.Scenario) bool {
	return pr.ref == nil && s.HasTag(tagLong) && !pr.cfg.Long
}

// maxAgents is the run's --max-agents, or DefaultMaxAgents.
func (pr *protocolRun) maxAgents() int {
	if pr.cfg.MaxAgents > 0 {
		return pr.cfg.MaxAgents
	}
	return DefaultMaxAgents
}

// newPlanner builds the protocol's planner from the run's flags.
func (pr *protocolRun) newPlanner(documented, keep quota.Limits) *quota.Planner {
	return quota.NewAgentPlanner(documented, keep, pr.cfg.MaxWrites, pr.maxAgents())
}

// planner returns the protocol's shared planner (the one Env.Quota hands
// out), made from Protocol.Quota; nil when the protocol declares none.
func (pr *protocolRun) planner() *quota.Planner {
	q := pr.p.Quota
	if q == nil {
		return nil
	}
	v, _ := pr.shared.Once("quota planner "+pr.p.Name, func() (any, error) {
		return pr.newPlanner(q.Documented, q.Keep), nil
	})
	return v.(*quota.Planner)
}

// printPlan prints, against a live target and before the first request
// that spends anything, what the run will spend and the MUST rules it will
// not check, with why.
func (pr *protocolRun) printPlan(scenarios []features.Scenario, props []Property, left []verdict.Unchecked) {
	if pr.ref != nil || pr.cfg.Plan == nil {
		return
	}
	w := pr.cfg.Plan
	fmt.Fprintf(w, "%s live plan:\n", pr.p.Name)
	if pl := pr.planner(); pl != nil && pr.p.Quota.Documented != (quota.Limits{}) {
		fmt.Fprintf(w, "  %s\n", pl)
	}
	control, exhaust, long := 0, 0, 0
	for _, s := range scenarios {
		switch {
		case pr.longSkipped(s):
			long++
		case pr.exhaustable(s) && !pr.cfg.ExhaustQuotas:
			exhaust++
		case s.HasTag(tagControl) && !pr.exhaustable(s):
			control++
		}
	}
	fmt.Fprintf(w, "  checks: %d scenarios, %d property tests; %d scenarios need the embedded reference's controls (@control) and skip, spending nothing",
		len(scenarios), len(props), control)
	if exhaust > 0 {
		fmt.Fprintf(w, "; %d spend a throwaway identity's whole daily allowance and skip without --exhaust-quotas", exhaust)
	}
	if long > 0 {
		fmt.Fprintf(w, "; %d wait out a documented window in real time and skip without --long", long)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  MUST rules this run will not check: %d\n", len(left))
	unselected := 0
	for _, u := range left {
		if u.Reason == notSelected && !pr.cfg.ListUnselected {
			unselected++
			continue
		}
		fmt.Fprintf(w, "    %s: %s\n", u.Rule, u.Reason)
	}
	if unselected > 0 {
		// The rules --rule or --tags left out are counted, not listed: a
		// run of one rule would print the whole catalogue first.
		fmt.Fprintf(w, "    %d more that %s (--rule, --tags; --list-unselected or the JSON report's unchecked_must lists them)\n", unselected, notSelected)
	}
}

// notLiveMust lists the catalogue's MUST rules that no selected check can
// decide on a live target, with why.
func (pr *protocolRun) notLiveMust(scenarios []features.Scenario, props []Property) []verdict.Unchecked {
	why := map[string]string{} // the reason a rule's scenarios cannot run
	live := map[string]bool{}  // rules some runnable check cites
	for _, p := range props {
		for _, id := range p.Rules {
			live[id] = true
		}
	}
	for _, s := range scenarios {
		reason := pr.blocked(s)
		for _, t := range s.Tags {
			id := strings.TrimPrefix(t, "@")
			if reason == "" {
				live[id] = true
			} else if why[id] == "" {
				why[id] = reason
			}
		}
	}
	var out []verdict.Unchecked
	for _, r := range pr.cat.Rules {
		if r.Level != verdict.Must || live[r.ID] || r.ForAgents() {
			continue // a rule for agents is audited by serve --audit, never checked against a platform
		}
		reason := why[r.ID]
		if pr.p.Quota != nil && pr.p.Quota.NotLive[r.ID] != "" {
			reason = pr.p.Quota.NotLive[r.ID]
		}
		if reason == "" {
			reason = notSelected
		}
		out = append(out, verdict.Unchecked{Rule: r.ID, Title: r.Title, Reason: reason})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rule < out[j].Rule })
	return out
}

// blocked says why a scenario cannot run on a live target, or "".
func (pr *protocolRun) blocked(s features.Scenario) string {
	switch {
	case pr.longSkipped(s):
		return needsLong
	case pr.exhaustable(s) && pr.cfg.ExhaustQuotas:
		return ""
	case pr.exhaustable(s):
		return "spends a throwaway identity's whole daily allowance: run with --exhaust-quotas on a staging deployment"
	case s.HasTag(tagControl):
		return "needs the embedded reference's controls (@control: clock, counters, faults)"
	}
	return ""
}

// exhaustable reports whether --exhaust-quotas lets s run on a live
// target: tagged @exhaust, or a @control scenario of a rule the protocol's
// Exhaust names.
func (pr *protocolRun) exhaustable(s features.Scenario) bool {
	return s.HasTag(tagExhaust) || (s.HasTag(tagControl) && pr.p.Quota.exhausts(s))
}

// notSelected is the reason of a MUST rule left out by --rule or --tags.
const notSelected = "no selected check cites it"

// blockedOnly keeps the rules no live run with these flags can check,
// leaving out those merely not selected.
func blockedOnly(left []verdict.Unchecked) []verdict.Unchecked {
	var out []verdict.Unchecked
	for _, u := range left {
		if u.Reason != notSelected {
			out = append(out, u)
		}
	}
	return out
}
