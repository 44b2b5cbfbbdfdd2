package report

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Summary writes the plain-text end of a run: the per-protocol table, the
// run's harness errors, every finding in detail, and a last line with the
// verdict and exit code that CI logs end on.
func Summary(w io.Writer, r *verdict.Report) {
	summaryTable(w, r)
	writeWhatBroke(w, r)
	for _, e := range r.Errors {
		fmt.Fprintf(w, "\nHARNESS ERROR: %s\n", e)
	}
	for _, e := range r.NothingChecked() {
		fmt.Fprintf(w, "\nNOTHING CHECKED: %s\n", e)
	}
	for _, e := range r.Stale {
		fmt.Fprintf(w, "\nSTALE BASELINE: %s\n", staleMessage(e))
		if r.Shard != "" {
			fmt.Fprintf(w, "  (shard %s: another shard may still see the failure; conformance merge decides)\n", r.Shard)
		}
	}
	for _, e := range r.NotProtocol {
		fmt.Fprintf(w, "\nWRONG TARGET: %s\n", e)
	}
	writeNotServed(w, r)
	idx := ruleIndex(r)
	for _, g := range groupFindings(findings(r)) {
		fmt.Fprintln(w)
		if g.first.Baseline != nil {
			writeKnown(w, g.first)
		} else {
			writeFinding(w, g.first, idx)
		}
		writeSameCause(w, g)
	}
	fmt.Fprintln(w)
	for _, name := range protocolNames(r) {
		p := protocolInfo(r, name)
		checked, total, unchecked := r.MustCoverage(p)
		fmt.Fprintf(w, "%s: MUST rules checked on this target: %d/%d%s%s\n", name, checked, total,
			liveNote(checked, total, p), uncheckedNote(unchecked, p.NotLive))
	}
	fmt.Fprintln(w, resultLine(r))
}

// summaryTable writes one row per protocol: its counts and how many of its
// catalogued rules some check exercised.
func summaryTable(w io.Writer, r *verdict.Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "protocol\tpass\tfail\twarn\tskip\terror\ttotal\trules covered")
	tally := r.Tally()
	for _, name := range protocolNames(r) {
		c := tally[name]
		p := protocolInfo(r, name)
		fmt.Fprintf(tw, "%s\t", name)
		for _, st := range statuses {
			fmt.Fprintf(tw, "%d\t", c[st])
		}
		fmt.Fprintf(tw, "%d\t%d/%d\n", c.Total(), covered(p, r), len(p.Rules))
	}
	tw.Flush()
}

// resultLine is the last line of the summary, e.g.
// "RESULT: FAIL (exit 1) — 3 failed, 120 passed, 2 warnings, 4 skipped, 0 errors".
// A run that fails only because its baseline is stale says so in the
// verdict word ("RESULT: STALE BASELINE (exit 1: 1 entry no longer
// fails)"), never "FAIL … 0 failed", which reads as a contradiction.
func resultLine(r *verdict.Report) string {
	word, why := verdictWords(r)
	return fmt.Sprintf("RESULT: %s (exit %d%s) — %s", word, r.ExitCode(), why, countsLine(totals(r)))
}

// verdictWords are the run's verdict as the summary and the HTML page
// name it, and why when the counts alone do not show it: "STALE BASELINE"
// with ": 1 entry no longer fails" for a run that fails on its baseline
// alone, ", wrong target", ", nothing was checked".
func verdictWords(r *verdict.Report) (word, why string) {
	c := totals(r)
	word = strings.ToUpper(string(overall(r)))
	switch {
	case overall(r) == verdict.Fail && c[verdict.Fail] == 0 && len(r.Stale) > 0 && r.Shard == "":
		// Nothing failed: the run fails because the baseline is stale.
		entries := "entries no longer fail"
		if len(r.Stale) == 1 {
			entries = "entry no longer fails"
		}
		return "STALE BASELINE", fmt.Sprintf(": %d %s", len(r.Stale), entries)
	case overall(r) == verdict.Fail && c[verdict.Fail] == 0 && len(r.NotProtocol) > 0:
		return word, ", wrong target" // nothing failed: the target is not the protocol
	case overall(r) == verdict.Error && len(r.NothingChecked()) > 0:
		return word, ", nothing was checked"
	}
	return word, ""
}

// writeFinding writes one fail, error or warning with everything needed to
// understand and reproduce it.
func writeFinding(w io.Writer, res verdict.Result, idx map[string]verdict.RuleInfo) {
	fmt.Fprintf(w, "%s  %s  %s\n", strings.ToUpper(string(res.Status)), res.Protocol, checkName(res))
	for _, line := range findingRules(res, idx) {
		fmt.Fprintf(w, "  rule:       %s\n", line)
	}
	field(w, "expected", res.Expected)
	field(w, "observed", res.Observed)
	field(w, "message", res.Message)
	for _, warn := range res.Warnings {
		field(w, "warning", warn)
	}
	writeReplay(w, res)
	writeTranscript(w, res)
}

// shownCauses bounds the one-line causes the summary lists before the
// findings in full.
const shownCauses = 12

// writeWhatBroke lists, right under the table, one line per root cause of
// the fails and errors (rule, level, check, what was expected and seen),
// so the causes stand in the summary's first lines however long the
// evidence below them is.
func writeWhatBroke(w io.Writer, r *verdict.Report) {
	idx := ruleIndex(r)
	var lines []string
	for _, g := range groupFindings(findings(r)) {
		res := g.first
		if res.Baseline != nil || (res.Status != verdict.Fail && res.Status != verdict.Error) {
			continue
		}
		rule := res.FailedRule
		if info, ok := idx[rule]; ok {
			rule += " (" + string(info.Level) + ")"
		}
		if rule != "" {
			rule += " "
		}
		cause := oneLine(ruleMessage(res), 110)
		if res.Expected != "" || res.Observed != "" {
			cause = "expected " + oneLine(res.Expected, 50) + ", observed " + oneLine(res.Observed, 50)
		}
		more := ""
		if len(g.rest) > 0 {
			more = fmt.Sprintf(" (+%d checks, same cause)", len(g.rest))
		}
		lines = append(lines, fmt.Sprintf("  %s %s%s › %s: %s%s", strings.ToUpper(string(res.Status)), rule, res.Protocol,
			oneLine(res.Name, 60), cause, more))
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "\nWHAT BROKE (each in full below):")
	for i, l := range lines {
		if i == shownCauses {
			fmt.Fprintf(w, "  … %d more\n", len(lines)-shownCauses)
			break
		}
		fmt.Fprintln(w, l)
	}
}

// writeKnown writes a failure the --baseline expects in one line: it is
// known, so its evidence would only bury the news (the JSON report and the
// case file keep it).
func writeKnown(w io.Writer, res verdict.Result) {
	rule := res.FailedRule
	if rule == "" {
		rule = strings.Join(res.Rules, ",")
	}
	fmt.Fprintf(w, "KNOWN  %s  %s  %s (baseline: %s)\n", res.Protocol, checkName(res), rule, oneLine(res.Baseline.Reason, 120))
}

// findingRules describes the rule a finding is about: the failed rule when
// there is one, otherwise every rule the check cites.
func findingRules(res verdict.Result, idx map[string]verdict.RuleInfo) []string {
	ids := res.Rules
	if res.FailedRule != "" {
		ids = []string{res.FailedRule}
	}
	var out []string
	for _, id := range ids {
		out = append(out, describeRule(id, idx))
	}
	return out
}

// describeRule is "ID (LEVEL) title", or a note that the rule is not in the
// catalogue, which itself points to a broken step definition.
func describeRule(id string, idx map[string]verdict.RuleInfo) string {
	info, ok := idx[id]
	if !ok {
		return id + " (not in the catalogue)"
	}
	return fmt.Sprintf("%s (%s) %s", id, info.Level, info.Title)
}

// writeReplay writes what reproduces a property failure: seed, the minimal
// action sequence and the case file `conformance replay` takes.
func writeReplay(w io.Writer, res verdict.Result) {
	if res.Seed != 0 {
		fmt.Fprintf(w, "  seed:       %d\n", res.Seed)
	}
	if len(res.Sequence) > 0 {
		fmt.Fprintf(w, "  sequence:   %s\n", plural(len(res.Sequence), "action"))
		for i, a := range res.Sequence {
			fmt.Fprintf(w, "    %d. %s\n", i+1, printable(cut(a, bodyLimit)))
		}
	}
	if res.CaseFile != "" {
		fmt.Fprintf(w, "  replay:     conformance replay %s\n", res.CaseFile)
	}
}

// field writes "  name: value" aligned, continuing multi-line values on
// indented lines; empty values are left out.
func field(w io.Writer, name, value string) {
	if value == "" {
		return
	}
	lines := joinClosers(strings.Split(strings.TrimRight(printable(cut(value, bodyLimit)), "\n"), "\n"))
	fmt.Fprintf(w, "  %-11s %s\n", name+":", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "  %-11s %s\n", "", l)
	}
}

// joinClosers joins a line holding only closing punctuation to the line
// before it: a body quoted with its trailing newline inside "(...)" would
// otherwise leave a lone ")" line.
func joinClosers(lines []string) []string {
	out := lines[:0:0]
	for _, l := range lines {
		if t := strings.TrimSpace(l); len(out) > 0 && t != "" && strings.Trim(t, ")]}>\"'.,;") == "" {
			out[len(out)-1] += t
			continue
		}
		out = append(out, l)
	}
	return out
}

// uncheckedNote accounts, on the MUST line, for the unchecked MUST rules
// the plan did not already name: grouped by what would check them (a
// flag such as --allow-authoring, the embedded reference's controls, a
// route the target does not serve, a wider selection), most first, so
// every MUST rule of the line is accounted for.
func uncheckedNote(unchecked, notLive []verdict.Unchecked) string {
	named := map[string]bool{}
	for _, u := range notLive {
		named[u.Rule] = true
	}
	counts := map[string]int{}
	for _, u := range unchecked {
		if !named[u.Rule] {
			counts[uncheckedWhy(u.Reason)]++
		}
	}
	if len(counts) == 0 {
		return ""
	}
	whys := make([]string, 0, len(counts))
	for why := range counts {
		whys = append(whys, why)
	}
	sort.Slice(whys, func(i, j int) bool {
		if counts[whys[i]] != counts[whys[j]] {
			return counts[whys[i]] > counts[whys[j]]
		}
		return whys[i] < whys[j]
	})
	parts := make([]string, len(whys))
	for i, why := range whys {
		parts[i] = fmt.Sprintf("%d %s", counts[why], why)
	}
	return "; not checked: " + strings.Join(parts, ", ")
}

// flagNamed finds the first run flag a reason names (run with --x).
var flagNamed = regexp.MustCompile(`--[a-z][a-z-]+[a-z]`)

// uncheckedWhy is the group an unchecked rule's reason falls in.
func uncheckedWhy(reason string) string {
	switch {
	case strings.Contains(reason, "does not look like"):
		return "not run (wrong target)"
	case strings.Contains(reason, "no selected check cites it"):
		return "not selected (--rule, --tags, --shard)"
	case strings.Contains(reason, "does not serve"):
		return "on routes the target does not serve"
	case strings.Contains(reason, "embedded reference") || strings.Contains(reason, "@control"):
		return "need the embedded reference's controls"
	case flagNamed.MatchString(reason):
		return "need " + flagNamed.FindString(reason)
	case strings.HasPrefix(reason, "error"):
		return "ended in a harness error"
	}
	return "skipped for other reasons (the JSON report's unchecked_must says why)"
}

// staleMessage explains a stale --baseline entry.
func staleMessage(e verdict.BaselineEntry) string {
	return fmt.Sprintf("%s is listed as a known failure (%s) but no longer fails: remove it from the baseline", e.Key(), e.Reason)
}

// liveNote tells, for a live run whose plan named MUST rules no live run
// can check, how many of the others were checked.
func liveNote(checked, total int, p verdict.ProtocolInfo) string {
	if len(p.NotLive) == 0 {
		return ""
	}
	checkable := total - len(p.NotLive)
	if checked >= checkable {
		return fmt.Sprintf(" (every live-checkable one: %d need what no live run has, named in the plan)", len(p.NotLive))
	}
	return fmt.Sprintf(" (%d of the %d live-checkable; %d need what no live run has, named in the plan)", checked, checkable, len(p.NotLive))
}
