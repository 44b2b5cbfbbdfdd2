// Package baseline applies a --baseline file to a run's report: failures
// the file lists (by rule, or by check) with a reason are reported as
// expected warnings and do not fail the run; a listed failure that no
// longer happens is stale and fails the run, so that baselines only shrink.
package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/agentgames/conformance/conformance/verdict"
)

// File is a baseline file:
//
//	{"known_failures": [
//	  {"rule": "IYRA-SCORE", "reason": "score fix ships in 2.1 (TICKET-12)"},
//	  {"protocol": "iyra", "check": "withdrawing ends the session", "reason": "…"}
//	]}
type File struct {
	KnownFailures []verdict.BaselineEntry `json:"known_failures"`
}

// Load reads and checks a baseline file; unknown fields, entries naming
// neither a rule nor a check, and entries without a reason are refused.
func Load(path string) (*File, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	return Parse(raw)
}

// Parse decodes and checks a baseline document.
func Parse(raw []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	var errs []error
	seen := map[string]bool{}
	for i, e := range f.KnownFailures {
		switch {
		case (e.Rule == "") == (e.Check == ""):
			errs = append(errs, fmt.Errorf("entry %d: name either a rule or a check (with its protocol)", i+1))
		case e.Check != "" && e.Protocol == "":
			errs = append(errs, fmt.Errorf("entry %d: check %q needs its protocol", i+1, e.Check))
		case e.Reason == "":
			errs = append(errs, fmt.Errorf("entry %d (%s): a known failure needs its reason", i+1, e.Key()))
		case seen[e.Key()]:
			errs = append(errs, fmt.Errorf("entry %d: %s is listed twice", i+1, e.Key()))
		}
		seen[e.Key()] = true
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	return &f, nil
}

// Apply marks the report's failures the baseline expects and records the
// stale entries: an entry is stale when its checks ran, were decided, and
// none failed it. An entry whose checks did not run (another shard, a --rule
// selection) is neither.
func (f *File) Apply(rep *verdict.Report) {
	decided := rep.RuleStatusMap() // before any failure turns into a warning
	for _, e := range f.KnownFailures {
		matched, ran := false, false
		if e.Rule != "" {
			st := decided[e.Rule]
			ran = st == verdict.Pass || st == verdict.Warn || st == verdict.Fail
		}
		for i := range rep.Results {
			res := &rep.Results[i]
			failed := res.Status == verdict.Fail || res.Baseline != nil
			switch {
			case e.Rule != "" && failed && res.FailedRule == e.Rule:
			case e.Rule == "" && res.Protocol == e.Protocol && res.Name == e.Check:
				ran = ran || res.Status == verdict.Pass || res.Status == verdict.Warn || failed
				if !failed {
					continue
				}
			default:
				continue
			}
			matched = true
			if res.Baseline == nil {
				expect(res, e)
			}
		}
		if ran && !matched {
			rep.Stale = append(rep.Stale, e)
		}
	}
}

// expect turns a failure the baseline lists into an expected warning.
func expect(res *verdict.Result, e verdict.BaselineEntry) {
	entry := e
	res.Status = verdict.Warn
	res.Baseline = &entry
	res.Message = fmt.Sprintf("expected failure (baseline: %s): %s", e.Reason, res.Message)
}

// Expects reports whether res is a failure some entry lists, as Apply
// would mark it: --fail-fast reads it so that a known failure does not
// stop the run.
func (f *File) Expects(res verdict.Result) bool {
	if res.Status != verdict.Fail {
		return false
	}
	for _, e := range f.KnownFailures {
		if (e.Rule != "" && res.FailedRule == e.Rule) || (e.Rule == "" && res.Protocol == e.Protocol && res.Name == e.Check) {
			return true
		}
	}
	return false
}
