// Package verdict is the kit's result model: the five statuses a check can
// end in, the typed errors that steps return to reach them, and the result
// records that reports render.
//
// The lattice follows the OCI distribution-spec conformance suite: a fail is a
// broken rule, an error is a harness that could not decide. Keeping the two
// apart is what lets CI gate a release on exit code 1 without flaking on a
// network outage (exit code 2).
package verdict

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentgames/conformance/spec"
)

// Status is the outcome of one check.
type Status string

// The statuses, in increasing order of severity (see Worse).
const (
	Pass  Status = "pass"
	Skip  Status = "skip"
	Warn  Status = "warn"
	Fail  Status = "fail"
	Error Status = "error"
)

var severity = map[Status]int{Pass: 0, Skip: 1, Warn: 2, Fail: 3, Error: 4}

// Worse returns the more severe of two statuses, so results can be folded.
func Worse(a, b Status) Status {
	if severity[b] > severity[a] {
		return b
	}
	return a
}

// Failure is a broken rule: the error a step returns when the target did not
// do what rule RuleID says. Expected and Observed are shown verbatim.
type Failure struct {
	RuleID   string
	Expected any
	Observed any
	Detail   string
}

// Error formats the failure as one line naming the rule.
func (f *Failure) Error() string {
	msg := fmt.Sprintf("%s: expected %v, observed %v", f.RuleID, show(f.Expected), show(f.Observed))
	if f.Detail != "" {
		msg += " (" + f.Detail + ")"
	}
	return msg
}

func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", v)
}

// Failf builds a Failure for rule with what was expected and observed.
func Failf(rule string, expected, observed any, detail string, args ...any) error {
	return &Failure{RuleID: rule, Expected: expected, Observed: observed, Detail: fmt.Sprintf(detail, args...)}
}

// HarnessError means the harness could not decide: network failure, timeout,
// exhausted quota, a malformed response that prevents any judgement.
type HarnessError struct{ Cause error }

// Error describes the cause.
func (e *HarnessError) Error() string { return "harness error: " + e.Cause.Error() }

// Unwrap exposes the cause to errors.Is.
func (e *HarnessError) Unwrap() error { return e.Cause }

// Errorf builds a HarnessError.
func Errorf(format string, args ...any) error {
	return &HarnessError{Cause: fmt.Errorf(format, args...)}
}

// Skipped means the check could not run here: an optional capability is
// missing or the write budget ran out. It is neither pass nor fail.
type Skipped struct{ Reason string }

// Error returns the reason.
func (s *Skipped) Error() string { return "skipped: " + s.Reason }

// Skipf builds a Skipped error.
func Skipf(format string, args ...any) error {
	return &Skipped{Reason: fmt.Sprintf(format, args...)}
}

// Level is how binding a rule is (spec.Level: the catalogue owns it, so
// spec never imports the runner).
type Level = spec.Level

// The rule levels.
const (
	Must      = spec.Must
	Should    = spec.Should
	Reference = spec.Reference
)

// Classify maps a step error to a status. levelOf resolves a failed rule's
// level; a broken SHOULD or REFERENCE rule is a warning, never a fail.
func Classify(err error, levelOf func(rule string) Level) Status {
	if err == nil {
		return Pass
	}
	var f *Failure
	var s *Skipped
	switch {
	case errors.As(err, &f):
		if levelOf(f.RuleID) == Must {
			return Fail
		}
		return Warn
	case errors.As(err, &s):
		return Skip
	default:
		return Error
	}
}

// Exchange is one request/response pair as the runner saw it, with every
// secret already redacted by the driver.
type Exchange struct {
	Method     string            `json:"method"`
	URL        string            `json:"url"`
	ReqHeader  map[string]string `json:"request_headers,omitempty"`
	ReqBody    string            `json:"request_body,omitempty"`
	Status     int               `json:"status"`
	RespHeader map[string]string `json:"response_headers,omitempty"`
	RespBody   string            `json:"response_body,omitempty"`
	Elapsed    time.Duration     `json:"elapsed_ns"`
	Note       string            `json:"note,omitempty"`
}

// Result is the outcome of one scenario or property check.
type Result struct {
	Protocol   string   `json:"protocol"`
	Feature    string   `json:"feature"`
	Name       string   `json:"name"`
	Kind       string   `json:"kind"` // "scenario" or "property"
	Rules      []string `json:"rules"`
	Status     Status   `json:"status"`
	FailedRule string   `json:"failed_rule,omitempty"`
	// Stopped means a step failed on FailedRule and the check ended there,
	// so its other rules were not decided (see RuleStatuses).
	Stopped bool `json:"stopped,omitempty"`
	// Baseline is the --baseline entry that expects this failure: the
	// result was a fail and is reported as a warning.
	Baseline *BaselineEntry `json:"baseline,omitempty"`
	Message  string         `json:"message,omitempty"`
	Expected string         `json:"expected,omitempty"`
	Observed string         `json:"observed,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
	// Notes are what a check wants said whatever its verdict, never a
	// finding (InfoNote): e.g. which states a steered match reached.
	Notes      []string      `json:"notes,omitempty"`
	Transcript []Exchange    `json:"transcript,omitempty"`
	Seed       uint64        `json:"seed,omitempty"`
	Sequence   []string      `json:"sequence,omitempty"`
	CaseFile   string        `json:"case_file,omitempty"`
	Duration   time.Duration `json:"duration_ns"`
}

// blocks reports whether this result stopped on a failure (or warning) of
// another rule before it could decide rule id.
func (r Result) blocks(id string) bool {
	return r.Stopped && r.FailedRule != "" && r.FailedRule != id && (r.Status == Fail || r.Status == Warn)
}

// Verdicts is RuleStatuses as coverage counts it: a check that ended in
// pass, fail or warn reached a verdict for every rule it is tagged with, so
// a rule it stopped short of (blocked by a failure on another rule) takes
// the check's status, as in Report.RuleStatusMap, rather than skip.
func (r Result) Verdicts() map[string]Status {
	out := r.RuleStatuses()
	for id := range out {
		if r.blocks(id) {
			out[id] = r.Status
		}
	}
	return out
}

// RuleStatuses says what this result decided of each rule it touches. A
// failure or warning counts against FailedRule only: when the check stopped
// there, its other rules were not decided and count as skipped; when the
// failure was found in passing (a schema mismatch), its own rules passed.
func (r Result) RuleStatuses() map[string]Status {
	out := make(map[string]Status, len(r.Rules)+1)
	blamed := r.FailedRule != "" && (r.Status == Fail || r.Status == Warn)
	for _, id := range r.Rules {
		switch {
		case !blamed:
			out[id] = r.Status
		case r.Stopped:
			out[id] = Skip
		default:
			out[id] = Pass
		}
	}
	if blamed {
		out[r.FailedRule] = r.Status
	}
	return out
}

// InfoPrefix marks a transcript note that the result also lists in Notes
// (and the console prints under the check's line, pass or not).
const InfoPrefix = "info: "

// InfoNotes lists the notes of a transcript marked with InfoPrefix.
func InfoNotes(ex []Exchange) []string {
	var out []string
	for _, x := range ex {
		if len(x.Note) > len(InfoPrefix) && x.Note[:len(InfoPrefix)] == InfoPrefix {
			out = append(out, x.Note[len(InfoPrefix):])
		}
	}
	return out
}
