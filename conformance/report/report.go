// Package report renders a run's verdict.Report for the people and machines
// that read it. Every format is built from the same Report, so they never
// disagree about a result:
//
//   - Console: live progress while the run goes on, one line per finished
//     check (`[ 12/40] iyra  identity proof › rejects ... PASS (3ms)`), with
//     the one-line message of a fail, warning or error indented below it.
//     Plain text by default, so CI logs stay readable; ANSI colour on request.
//   - Summary: the plain-text end of a run: a table per protocol with counts
//     and rule coverage, then every fail, error and warning with its rule,
//     expected/observed, seed and action sequence, replay case file and HTTP
//     transcript, and a last RESULT line carrying the exit code.
//   - WriteJUnit: JUnit XML for CI dashboards; one testsuite per protocol,
//     one testcase per check, classname "<protocol>.<feature>".
//   - WriteJSON: a stable machine-readable document (all object keys sorted,
//     so two runs with the same outcome diff cleanly) with a per-rule view
//     of the catalogue and the full results with transcripts.
//   - WriteHTML: one self-contained page (inline CSS, no external URLs, no
//     JavaScript) with the verdict, the per-protocol summary, the rule
//     coverage matrix and the findings with their transcripts.
//
// WriteFile writes any of them atomically, so a crash never leaves half a
// report where CI expects a whole one.
package report

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Untested is the status a catalogued rule gets in reports when no result
// checked it. It is not a verdict.Status a check can end in.
const Untested verdict.Status = "untested"

// bodyLimit is how many bytes of a request or response body the text
// formats show; bodies beyond it are cut so a large payload cannot drown
// the finding it belongs to.
const bodyLimit = 2048

// statuses lists the check statuses in the column order every table uses.
var statuses = []verdict.Status{verdict.Pass, verdict.Fail, verdict.Warn, verdict.Skip, verdict.Error}

// protocolNames returns the protocols of a report in catalogue order, then
// any protocol that only appears in results (sorted), so no result is lost
// from a per-protocol view.
func protocolNames(r *verdict.Report) []string {
	seen := map[string]bool{}
	var names []string
	for _, p := range r.Protocols {
		if !seen[p.Name] {
			seen[p.Name] = true
			names = append(names, p.Name)
		}
	}
	var extra []string
	for _, res := range r.Results {
		if !seen[res.Protocol] {
			seen[res.Protocol] = true
			extra = append(extra, res.Protocol)
		}
	}
	sort.Strings(extra)
	return append(names, extra...)
}

// protocolInfo returns the catalogue of a protocol, or a bare entry when the
// report has none for it.
func protocolInfo(r *verdict.Report, name string) verdict.ProtocolInfo {
	for _, p := range r.Protocols {
		if p.Name == name {
			return p
		}
	}
	return verdict.ProtocolInfo{Name: name}
}

// resultsOf returns the results of one protocol in run order.
func resultsOf(r *verdict.Report, protocol string) []verdict.Result {
	var out []verdict.Result
	for _, res := range r.Results {
		if res.Protocol == protocol {
			out = append(out, res)
		}
	}
	return out
}

// ruleIndex maps every catalogued rule ID to its entry, so findings can
// cite the level and title of the rule they broke.
func ruleIndex(r *verdict.Report) map[string]verdict.RuleInfo {
	idx := map[string]verdict.RuleInfo{}
	for _, p := range r.Protocols {
		for _, rule := range p.Rules {
			idx[rule.ID] = rule
		}
	}
	return idx
}

// ruleStatuses folds, for every rule, what the results decided of it
// (verdict.Result.RuleStatuses): a failure counts against the rule that
// failed, not against every rule its scenario is tagged with.
func ruleStatuses(r *verdict.Report) map[string]verdict.Status {
	return r.RuleStatusMap()
}

// ruleStatus is the report status of one rule: the fold of its results or
// Untested.
func ruleStatus(folded map[string]verdict.Status, id string) verdict.Status {
	if st, ok := folded[id]; ok {
		return st
	}
	return Untested
}

// covered counts the catalogued rules of p on which some check reached a
// verdict (verdict.Report.Decided). A rule whose checks were all skipped or
// errored is not covered: nothing was judged (a down target covers 0).
func covered(p verdict.ProtocolInfo, r *verdict.Report) int {
	decided := r.Decided()
	n := 0
	for _, rule := range p.Rules {
		if _, ok := decided[rule.ID]; ok {
			n++
		}
	}
	return n
}

// overall is the run's headline status, consistent with Report.ExitCode: a
// fail outranks a harness error, and a clean run is a warning when any
// check warned.
func overall(r *verdict.Report) verdict.Status {
	switch r.ExitCode() {
	case 1:
		return verdict.Fail
	case 2:
		return verdict.Error
	}
	for _, res := range r.Results {
		if res.Status == verdict.Warn {
			return verdict.Warn
		}
	}
	return verdict.Pass
}

// totals counts every result of the run by status; run-level harness errors
// count as errors so the RESULT line never hides them.
func totals(r *verdict.Report) verdict.Counts {
	c := verdict.Counts{}
	for _, res := range r.Results {
		c[res.Status]++
	}
	c[verdict.Error] += len(r.Errors)
	return c
}

// FindingsOnly returns a copy of r whose checks that passed or skipped
// cleanly carry no transcript: their evidence is what every passing run
// repeats, and it made a 40-check report weigh half a megabyte
// (--transcripts all keeps it). r itself is not changed.
func FindingsOnly(r *verdict.Report) *verdict.Report {
	out := *r
	out.Results = make([]verdict.Result, len(r.Results))
	for i, res := range r.Results {
		if !isFinding(res) && res.Baseline == nil {
			res.Transcript = nil
		}
		out.Results[i] = res
	}
	return &out
}

// isFinding reports whether a result must be shown in detail: it did not
// pass cleanly or it passed with warnings.
func isFinding(res verdict.Result) bool {
	switch res.Status {
	case verdict.Fail, verdict.Error, verdict.Warn:
		return true
	}
	return len(res.Warnings) > 0
}

// findings returns the results to show in detail, fails first, then errors,
// then warnings, each group in run order, so the news CI must see comes first.
func findings(r *verdict.Report) []verdict.Result {
	rank := map[verdict.Status]int{verdict.Fail: 0, verdict.Error: 1}
	var out []verdict.Result
	for _, res := range r.Results {
		if isFinding(res) {
			out = append(out, res)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, ok := rank[out[i].Status]
		if !ok {
			ri = 2
		}
		rj, ok := rank[out[j].Status]
		if !ok {
			rj = 2
		}
		return ri < rj
	})
	return out
}

// ruleMessage prefixes a result's message with its failed rule ID unless the
// message already starts with it (verdict.Failure messages do).
func ruleMessage(res verdict.Result) string {
	msg := res.Message
	if res.FailedRule == "" || strings.HasPrefix(msg, res.FailedRule) {
		return msg
	}
	if msg == "" {
		return res.FailedRule
	}
	return res.FailedRule + ": " + msg
}

// oneLine squeezes a possibly multi-line message into one line of at most
// max runes, for the console and XML attributes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(printable(s)), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// cut trims a body to limit bytes on a rune boundary and says how much was
// left out, so a reader knows the transcript is partial.
func cut(body string, limit int) string {
	if len(body) <= limit {
		return body
	}
	n := limit
	for n > 0 && !utf8.RuneStart(body[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d more bytes)", body[:n], len(body)-n)
}

// printable makes target-controlled text safe for a terminal or log: control
// characters other than newline and tab (an ESC could rewrite the reader's
// screen) and invalid UTF-8 bytes are shown as \xNN escapes instead.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// checkName is "feature › name", the way every format titles a check.
func checkName(res verdict.Result) string {
	if res.Feature == "" {
		return printable(res.Name)
	}
	return printable(res.Feature + " › " + res.Name)
}

// formatDuration shows a check's duration at a precision a human can read:
// whole milliseconds below a second, hundredths above.
func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0ms"
	case d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Round(time.Millisecond).Milliseconds())
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// plural writes "1 warning" or "2 warnings".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// countsLine is the human tally used by the RESULT line and the HTML
// header, e.g. "3 failed, 120 passed, 2 warnings, 4 skipped, 0 errors".
func countsLine(c verdict.Counts) string {
	return fmt.Sprintf("%d failed, %d passed, %s, %d skipped, %s",
		c[verdict.Fail], c[verdict.Pass], plural(c[verdict.Warn], "warning"),
		c[verdict.Skip], plural(c[verdict.Error], "error"))
}

// transcriptText renders exchanges as indented text: "METHOD URL -> status
// (elapsed)" then the request and response bodies, cut at bodyLimit. The
// summary and JUnit share it so both show the same evidence. A long
// transcript is shortened to what decides a finding (shortTranscript);
// the case file and the JSON report keep it whole.
func transcriptText(ex []verdict.Exchange, indent string) string {
	var b strings.Builder
	for _, s := range shortTranscript(ex) {
		if s.gap > 0 {
			fmt.Fprintf(&b, "%s… %s left out (the case file and the JSON report have every exchange)\n", indent, plural(s.gap, "exchange"))
			continue
		}
		e := ex[s.at]
		fmt.Fprintf(&b, "%s%d. %s %s -> %d (%s)\n", indent, s.at+1, printable(e.Method), printable(e.URL), e.Status, formatDuration(e.Elapsed))
		if e.Note != "" {
			fmt.Fprintf(&b, "%s   note: %s\n", indent, printable(e.Note))
		}
		writeBody(&b, indent+"   ", "request", e.ReqBody)
		writeBody(&b, indent+"   ", "response", e.RespBody)
		if s.repeats > 0 {
			fmt.Fprintf(&b, "%s   (then the same exchange %s more)\n", indent, plural(s.repeats, "time"))
		}
	}
	return b.String()
}

// shownExchange is one line of a shortened transcript: the exchange at
// index at (with how many identical ones followed it), or a gap of left
// out exchanges.
type shownExchange struct {
	at, repeats, gap int
}

// The shape of a shortened transcript: the first few exchanges (how the
// check set up) and the last few (what decided it).
const (
	transcriptHead = 2
	transcriptTail = 6
)

// shortTranscript folds runs of identical exchanges (the same request
// and answer, as when a budget is spent) into one, then keeps the first
// transcriptHead and the last transcriptTail of what is left, the last
// being where a check meets what it judges.
func shortTranscript(ex []verdict.Exchange) []shownExchange {
	var folded []shownExchange
	for i := range ex {
		if n := len(folded); n > 0 && sameExchange(ex[folded[n-1].at], ex[i]) {
			folded[n-1].repeats++
			continue
		}
		folded = append(folded, shownExchange{at: i})
	}
	if len(folded) <= transcriptHead+transcriptTail+1 {
		return folded
	}
	out := append([]shownExchange{}, folded[:transcriptHead]...)
	tail := folded[len(folded)-transcriptTail:]
	left := 0
	for _, f := range folded[transcriptHead : len(folded)-transcriptTail] {
		left += 1 + f.repeats
	}
	out = append(out, shownExchange{gap: left})
	return append(out, tail...)
}

// sameExchange reports whether two exchanges asked and answered the same
// (their timing aside).
func sameExchange(a, b verdict.Exchange) bool {
	return a.Method == b.Method && a.URL == b.URL && a.Status == b.Status && a.ReqBody == b.ReqBody &&
		a.RespBody == b.RespBody && a.Note == b.Note
}

// writeBody writes one labelled, indented body, or nothing when empty.
func writeBody(b *strings.Builder, indent, label, body string) {
	if body == "" {
		return
	}
	fmt.Fprintf(b, "%s%s:\n", indent, label)
	for _, line := range strings.Split(strings.TrimRight(printable(cut(body, bodyLimit)), "\n"), "\n") {
		fmt.Fprintf(b, "%s  %s\n", indent, line)
	}
}
