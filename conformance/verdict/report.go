package verdict

import (
	"sort"
	"strings"
	"time"
)

// RuleInfo is a catalogue entry as reports show it: enough to cite the
// source contract beside each result.
type RuleInfo struct {
	ID    string `json:"id"`
	Level Level  `json:"level"`
	Title string `json:"title"`
	Quote string `json:"quote"`
	Path  string `json:"path"`
	// Around is the source's words around a quote too short to mean
	// anything alone ("10", "false", "Your seat index."): the object that
	// holds it in a JSON source, the sentence or table row in a markdown
	// one (spec.Catalogue.AroundQuote).
	Around string `json:"around,omitempty"`
	Choice string `json:"choice,omitempty"`
}

// ProtocolInfo names one protocol of a run, where it was checked and its
// catalogue.
type ProtocolInfo struct {
	Name   string     `json:"name"`
	Title  string     `json:"title"`
	Target string     `json:"target"`
	Seed   string     `json:"seed_contract"`
	Rules  []RuleInfo `json:"rules"`
	// NotLive are the MUST rules a live run's plan said it cannot check
	// (white-box control, a daily reset, an opt-in it was not given), with
	// why; empty against the embedded reference.
	NotLive []Unchecked `json:"not_live,omitempty"`
}

// Report is everything one run produced; every report format renders it.
type Report struct {
	Tool      string         `json:"tool"`
	Started   time.Time      `json:"started"`
	Duration  time.Duration  `json:"duration_ns"`
	Seed      uint64         `json:"seed"`
	Embedded  bool           `json:"embedded"`
	Protocols []ProtocolInfo `json:"protocols"`
	Results   []Result       `json:"results"`
	// Errors are harness problems outside any one check (a protocol that
	// could not start); they make the run exit 2.
	Errors []string `json:"errors,omitempty"`
	// Stale lists the --baseline entries whose failure no longer happens:
	// they fail the run (exit 1) so that baselines only shrink.
	Stale []BaselineEntry `json:"stale,omitempty"`
	// Shard is "i/n" for one shard of a run. A shard's stale entries are
	// provisional (another shard may see the failure) and do not set its
	// exit code; `conformance merge` decides.
	Shard string `json:"shard,omitempty"`
	// NotProtocol says, per protocol, that the target answered but does
	// not look like that protocol at all (the preflight); it makes the run
	// exit 1 without running a check.
	NotProtocol []string `json:"not_protocol,omitempty"`
	// Audit marks serve --audit's report of the agents it watched, which
	// the run report's page renders: it is no run, so it has no exit code.
	Audit bool `json:"audit,omitempty"`
	// Selection is what the run was asked to check; shards of one run
	// share it (Merge refuses others).
	Selection *Selection `json:"selection,omitempty"`
}

// BaselineEntry is one known failure of a --baseline file: a rule, or one
// check (protocol and check name), with the reason it is expected.
type BaselineEntry struct {
	Rule     string `json:"rule,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	Check    string `json:"check,omitempty"`
	Reason   string `json:"reason"`
}

// Key names the entry: "rule ID" or "check PROTOCOL › NAME".
func (e BaselineEntry) Key() string {
	if e.Rule != "" {
		return "rule " + e.Rule
	}
	return "check " + e.Protocol + " › " + e.Check
}

// Counts tallies results by status.
type Counts map[Status]int

// Total is the number of results counted.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Tally counts results per protocol.
func (r *Report) Tally() map[string]Counts {
	out := map[string]Counts{}
	for _, res := range r.Results {
		if out[res.Protocol] == nil {
			out[res.Protocol] = Counts{}
		}
		out[res.Protocol][res.Status]++
	}
	return out
}

// Status folds every result into the run's status: the worst one, with a
// run that tested nothing (no result but skips, or no MUST rule decided
// where its checks cite some: NothingChecked) counted as an error.
func (r *Report) Status() Status {
	if len(r.Errors) > 0 || len(r.NothingChecked()) > 0 {
		return Error
	}
	st, tested := Pass, false
	for _, res := range r.Results {
		if res.Status != Skip {
			tested = true
		}
		st = Worse(st, res.Status)
	}
	if !tested {
		return Error
	}
	return st
}

// ExitCode is 0 when everything tested passed (warnings and skips allowed),
// 1 when any rule failed, a baseline entry is stale or the target is not
// the protocol (NotProtocol), 2 on a harness error or when nothing was
// checked (Status). The README's exit-code table says the same.
// A fail outranks an error: a broken rule is the news CI must see.
func (r *Report) ExitCode() int {
	any := func(s Status) bool {
		for _, res := range r.Results {
			if res.Status == s {
				return true
			}
		}
		return false
	}
	switch {
	case any(Fail), len(r.Stale) > 0 && r.Shard == "", len(r.NotProtocol) > 0:
		return 1
	case r.Status() == Error:
		return 2
	}
	return 0
}

// ByRule groups results under each rule they decided something of (see
// Result.RuleStatuses), sorted by name.
func (r *Report) ByRule() map[string][]Result {
	out := map[string][]Result{}
	for _, res := range r.Results {
		for id := range res.RuleStatuses() {
			out[id] = append(out[id], res)
		}
	}
	for id := range out {
		sort.SliceStable(out[id], func(i, j int) bool { return out[id][i].Name < out[id][j].Name })
	}
	return out
}

// RuleStatus folds what every result decided of one rule: its worst status,
// or "" when no result touched it.
func (r *Report) RuleStatus(id string) Status {
	return r.RuleStatusMap()[id]
}

// RuleStatusMap folds RuleStatuses over all results in one pass. A rule
// that no check decided, but whose check failed on another rule and stopped
// before reaching it (see Result.RuleStatuses), takes that check's status
// rather than "skip": with --rule it is the rule the user asked about, the
// summary counts its check as failed, and every report must say the same.
func (r *Report) RuleStatusMap() map[string]Status {
	out := map[string]Status{}
	blocked := map[string]Status{}
	for _, res := range r.Results {
		for id, st := range res.RuleStatuses() {
			if prev, ok := out[id]; ok {
				st = foldRule(prev, st)
			}
			out[id] = st
			if res.blocks(id) {
				blocked[id] = Worse(blocked[id], res.Status)
			}
		}
	}
	for id, st := range blocked {
		if out[id] == Skip {
			out[id] = st
		}
	}
	levels := r.Levels()
	for id, st := range out {
		out[id] = AtLevel(levels, id, st)
	}
	return out
}

// Levels maps every catalogued rule of the report to its level.
func (r *Report) Levels() map[string]Level {
	out := map[string]Level{}
	for _, p := range r.Protocols {
		for _, rule := range p.Rules {
			out[rule.ID] = rule.Level
		}
	}
	return out
}

// AtLevel is st as rule id may show it: a SHOULD or REFERENCE rule can be
// warned about, never failed, so a fail it takes from a check that failed
// on another (MUST) rule and stopped before reaching it reads as a
// warning. A rule the catalogue lacks counts as MUST, so a typo can never
// soften a failure.
func AtLevel(levels map[string]Level, id string, st Status) Status {
	if lv, ok := levels[id]; ok && st == Fail && lv != Must {
		return Warn
	}
	return st
}

// Failed reports whether any result failed on rule id; tests of broken
// targets use it to prove the right rule caught the fault.
func (r *Report) Failed(id string) bool {
	for _, res := range r.Results {
		if res.Status == Fail && res.FailedRule == id {
			return true
		}
	}
	return false
}

// foldRule combines two verdicts on one rule: a skip says nothing, so any
// decided verdict wins over it; otherwise the worse one wins.
func foldRule(a, b Status) Status {
	switch {
	case a == Skip:
		return b
	case b == Skip:
		return a
	}
	return Worse(a, b)
}

// ShortQuote reports whether a quote is too short to mean anything without
// the place it stands: fewer than four words, such as "10", "false" or
// "Your seat index." (a table cell whose row names the field).
func ShortQuote(q string) bool { return len(strings.Fields(q)) < 4 }
