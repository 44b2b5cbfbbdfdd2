package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// jsonDoc is the JSON report before its keys are sorted.
type jsonDoc struct {
	Tool       string                  `json:"tool"`
	Started    string                  `json:"started"`
	Duration   string                  `json:"duration"`
	DurationMS int64                   `json:"duration_ms"`
	Seed       uint64                  `json:"seed"`
	Embedded   bool                    `json:"embedded"`
	ExitCode   int                     `json:"exit_code"`
	Status     verdict.Status          `json:"status"`
	Totals     map[verdict.Status]int  `json:"totals"`
	Summary    map[string]jsonProtocol `json:"summary"`
	Rules      map[string]jsonRule     `json:"rules"`
	Results    []verdict.Result        `json:"results"`
	Errors     []string                `json:"errors"`
	Stale      []verdict.BaselineEntry `json:"stale,omitempty"`
	Shard      string                  `json:"shard,omitempty"`
	// NotProtocol holds the preflight's "does not look like" findings.
	NotProtocol []string `json:"not_protocol,omitempty"`
	// NothingChecked names the protocols of which no MUST rule reached a
	// verdict (verdict.Report.NothingChecked); recomputed, not read back.
	NothingChecked []string `json:"nothing_checked,omitempty"`
	// Selection is what the run was asked to check (merge compares it).
	Selection *verdict.Selection `json:"selection,omitempty"`
}

// jsonProtocol is one protocol's line of the summary.
type jsonProtocol struct {
	Title        string                 `json:"title"`
	Target       string                 `json:"target"`
	Contract     string                 `json:"seed_contract"`
	Counts       map[verdict.Status]int `json:"counts"`
	Total        int                    `json:"total"`
	RulesTotal   int                    `json:"rules_total"`
	RulesCovered int                    `json:"rules_covered"`
	// MustChecked counts the MUST rules some check passed or failed;
	// UncheckedMust lists the others with the reason, in rule ID order.
	MustChecked   int                 `json:"must_checked"`
	MustTotal     int                 `json:"must_total"`
	UncheckedMust []verdict.Unchecked `json:"unchecked_must"`
	// MustNotLive are the unchecked MUST rules a live plan said no live
	// run can check (omitted against the embedded reference).
	MustNotLive []verdict.Unchecked `json:"must_not_live,omitempty"`
}

// jsonRule is one rule of the catalogue with its folded status and checks.
type jsonRule struct {
	Protocol   string          `json:"protocol"`
	Level      verdict.Level   `json:"level"`
	Title      string          `json:"title"`
	Quote      string          `json:"quote"`
	Path       string          `json:"path"`
	Around     string          `json:"around,omitempty"` // the source's words around a short quote
	Choice     string          `json:"choice"`
	Catalogued bool            `json:"catalogued"`
	Status     verdict.Status  `json:"status"`
	Results    []jsonRuleCheck `json:"results"`
}

// jsonRuleCheck is a check as listed under a rule it cites: Status is
// what the check decided of this rule (a SHOULD or REFERENCE rule is never
// "fail", verdict.AtLevel), CheckStatus how the check itself ended. A
// passing check has no message, expected or observed, so those members
// are left out rather than written empty under every rule it cites (a
// passing run's report stays the size of its catalogue).
type jsonRuleCheck struct {
	Name        string         `json:"name"`
	Feature     string         `json:"feature"`
	Kind        string         `json:"kind"`
	Status      verdict.Status `json:"status"`
	CheckStatus verdict.Status `json:"check_status"`
	Message     string         `json:"message,omitempty"`
	Expected    string         `json:"expected,omitempty"`
	Observed    string         `json:"observed,omitempty"`
}

// WriteJSON writes the report as one JSON document whose object keys are
// sorted at every level and whose arrays keep a fixed order, so the same
// outcome always gives the same bytes and reports diff cleanly. Rule IDs key
// the `rules` object; catalogued rules nothing checked have status
// "untested". Integers (the 64-bit seed included) keep full precision.
func WriteJSON(w io.Writer, r *verdict.Report) error {
	raw, err := json.Marshal(buildJSON(r))
	if err != nil {
		return fmt.Errorf("json report: %w", err)
	}
	out, err := sortKeys(raw)
	if err != nil {
		return fmt.Errorf("json report: %w", err)
	}
	_, err = w.Write(out)
	return err
}

// buildJSON assembles the document from the report.
func buildJSON(r *verdict.Report) jsonDoc {
	results := r.Results
	if results == nil {
		results = []verdict.Result{}
	}
	errs := r.Errors
	if errs == nil {
		errs = []string{}
	}
	return jsonDoc{
		Tool:           r.Tool,
		Started:        r.Started.UTC().Format(time.RFC3339Nano),
		Duration:       r.Duration.String(),
		DurationMS:     r.Duration.Milliseconds(),
		Seed:           r.Seed,
		Embedded:       r.Embedded,
		ExitCode:       r.ExitCode(),
		Status:         overall(r),
		Totals:         totals(r),
		Summary:        jsonSummary(r),
		Rules:          jsonRules(r),
		Results:        results,
		Errors:         errs,
		Stale:          r.Stale,
		Shard:          r.Shard,
		NotProtocol:    r.NotProtocol,
		NothingChecked: r.NothingChecked(),
		Selection:      r.Selection,
	}
}

// jsonSummary builds the per-protocol counts and coverage.
func jsonSummary(r *verdict.Report) map[string]jsonProtocol {
	tally := r.Tally()
	out := map[string]jsonProtocol{}
	for _, name := range protocolNames(r) {
		p := protocolInfo(r, name)
		counts := map[verdict.Status]int{}
		for _, st := range statuses {
			counts[st] = tally[name][st]
		}
		checked, total, unchecked := r.MustCoverage(p)
		if unchecked == nil {
			unchecked = []verdict.Unchecked{}
		}
		// ID order, as the rules object: a report read back for `conformance
		// merge` knows its rules by ID only, and the merged document must
		// equal the unsharded one.
		sort.SliceStable(unchecked, func(i, j int) bool { return unchecked[i].Rule < unchecked[j].Rule })
		out[name] = jsonProtocol{
			Title: p.Title, Target: p.Target, Contract: p.Seed,
			Counts: counts, Total: tally[name].Total(),
			RulesTotal: len(p.Rules), RulesCovered: covered(p, r),
			MustChecked: checked, MustTotal: total, UncheckedMust: unchecked, MustNotLive: p.NotLive,
		}
	}
	return out
}

// jsonRules lists every catalogued rule and every rule a result cites that
// the catalogue lacks (marked catalogued: false, so the gap is visible).
func jsonRules(r *verdict.Report) map[string]jsonRule {
	byRule := r.ByRule()
	folded := ruleStatuses(r)
	levels := r.Levels()
	checks := func(id string) []jsonRuleCheck { return ruleChecks(id, byRule[id], levels) }
	out := map[string]jsonRule{}
	for _, p := range r.Protocols {
		for _, rule := range p.Rules {
			out[rule.ID] = jsonRule{
				Protocol: p.Name, Level: rule.Level, Title: rule.Title, Quote: rule.Quote,
				Path: rule.Path, Around: rule.Around, Choice: rule.Choice, Catalogued: true,
				Status: ruleStatus(folded, rule.ID), Results: checks(rule.ID),
			}
		}
	}
	for id, results := range byRule {
		if _, ok := out[id]; !ok {
			out[id] = jsonRule{Protocol: results[0].Protocol, Status: folded[id], Results: checks(id)}
		}
	}
	return out
}

// ruleChecks lists the checks of rule id, each with what it decided of
// the rule; never null, so readers can iterate.
func ruleChecks(id string, results []verdict.Result, levels map[string]verdict.Level) []jsonRuleCheck {
	out := []jsonRuleCheck{}
	for _, res := range results {
		out = append(out, jsonRuleCheck{
			Name: res.Name, Feature: res.Feature, Kind: res.Kind, CheckStatus: res.Status,
			Status:  verdict.AtLevel(levels, id, res.Verdicts()[id]),
			Message: res.Message, Expected: res.Expected, Observed: res.Observed,
		})
	}
	return out
}

// sortKeys re-encodes a JSON document with every object's keys sorted
// (encoding/json sorts map keys) and two-space indentation. Numbers are kept
// as their literal text so a uint64 seed does not lose precision.
func sortKeys(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
