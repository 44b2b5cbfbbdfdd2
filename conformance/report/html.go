package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// htmlBodyLimit is how much of a body the HTML page keeps. It is larger
// than the text limit because bodies sit folded in <details> there.
const htmlBodyLimit = 16 << 10

//go:embed report.html.tmpl
var htmlSource string

// pageTemplate is parsed once; html/template escapes every value by its
// context, so target-controlled text (bodies, messages) can never inject
// markup into the page.
var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"upper":  func(s verdict.Status) string { return strings.ToUpper(string(s)) },
	"plural": plural,
}).Parse(htmlSource))

// htmlPage is the view model of the page.
type htmlPage struct {
	Tool, Started, Duration string
	Seed                    uint64
	Embedded, Audit         bool
	Status                  verdict.Status
	Word                    string // the verdict as the summary's RESULT line names it
	ExitCode                int
	Counts                  string
	Errors                  []string
	Stale                   []string
	Statuses                []verdict.Status
	Glance                  []htmlGlance
	Protocols               []htmlProtocol
	Findings                []htmlFinding
}

// htmlGlance is one line of the findings summary at the top of the page:
// enough to know what broke without scrolling (rule, level, one line of
// expected and observed), linked to the finding in full.
type htmlGlance struct {
	Anchor, Rule, Level, Protocol, Check, Expected, Observed string
	Status                                                   verdict.Status
	Known                                                    bool
}

// htmlProtocol is one protocol's summary row, matrix and checks.
type htmlProtocol struct {
	Name, Title, Target, Contract string
	Counts                        []int
	Total, Covered, RulesTotal    int
	Rules                         []htmlRule
	Checks                        []htmlCheck
}

// htmlCheck is one row of a protocol's check list. Finding is the anchor
// of the check's finding in full, which its badge links to, so a FAIL in
// the list is one click from its cause as in the matrix.
type htmlCheck struct {
	verdict.Result
	Finding string
}

// checkKey names a check across the report's lists: its protocol, feature
// and name.
func checkKey(res verdict.Result) string {
	return res.Protocol + "\x00" + res.Feature + "\x00" + res.Name
}

// htmlRule is one row of the coverage matrix. Finding is the anchor of
// the first finding about the rule, which its badge links to; QuotePath is
// where a quote too short to mean anything alone ("10", "false") stands.
type htmlRule struct {
	ID, Title, Quote, QuotePath, Around, Choice, Finding string
	Level                                                verdict.Level
	Status                                               verdict.Status
	Checks                                               int
}

// htmlFinding is a fail, error or warning with its rule described.
type htmlFinding struct {
	verdict.Result
	Anchor     string
	RuleLines  []string
	Exchanges  []htmlExchange
	Replayable bool
}

// htmlExchange is one transcript entry ready to print.
type htmlExchange struct {
	Method, URL, Elapsed, Note           string
	Status                               int
	ReqHeader, ReqBody, RespHeader, Resp string
}

// WriteHTML writes the report as one self-contained HTML page: verdict
// header, per-protocol summary, the rule coverage matrix (untested rules
// included) and every finding with its transcript folded in <details>.
func WriteHTML(w io.Writer, r *verdict.Report) error {
	if err := pageTemplate.Execute(w, buildPage(r)); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}

// buildPage assembles the view model.
func buildPage(r *verdict.Report) htmlPage {
	page := htmlPage{
		Tool: r.Tool, Duration: r.Duration.Round(time.Millisecond).String(),
		Seed: r.Seed, Embedded: r.Embedded, Audit: r.Audit, Status: overall(r), ExitCode: r.ExitCode(),
		Counts: countsLine(totals(r)), Errors: printableAll(runProblems(r)), Statuses: statuses, Stale: staleLines(r),
	}
	page.Word, _ = verdictWords(r)
	if page.Tool == "" {
		page.Tool = "conformance"
	}
	if !r.Started.IsZero() {
		page.Started = r.Started.UTC().Format(time.RFC3339)
	}
	idx := ruleIndex(r)
	firstFinding := map[string]string{} // rule ID -> anchor of its first finding
	checkFinding := map[string]string{} // checkKey -> anchor of its finding
	for i, res := range findings(r) {
		f := htmlFindingOf(res, idx)
		f.Anchor = fmt.Sprintf("finding-%d", i+1)
		if _, ok := checkFinding[checkKey(res)]; !ok {
			checkFinding[checkKey(res)] = f.Anchor
		}
		page.Findings = append(page.Findings, f)
		page.Glance = append(page.Glance, glanceOf(f, idx))
		for _, id := range append([]string{res.FailedRule}, res.Rules...) {
			if _, ok := firstFinding[id]; !ok && id != "" {
				firstFinding[id] = f.Anchor
			}
		}
	}
	folded := ruleStatuses(r)
	byRule := r.ByRule()
	for _, name := range protocolNames(r) {
		page.Protocols = append(page.Protocols, htmlProtocolOf(r, name, folded, byRule, firstFinding, checkFinding))
	}
	return page
}

// glanceOf is a finding's line in the summary at the top of the page.
func glanceOf(f htmlFinding, idx map[string]verdict.RuleInfo) htmlGlance {
	g := htmlGlance{Anchor: f.Anchor, Status: f.Status, Protocol: f.Protocol, Check: checkName(f.Result),
		Expected: oneLine(f.Expected, 90), Observed: oneLine(f.Observed, 90), Known: f.Baseline != nil}
	g.Rule = f.FailedRule
	if g.Rule == "" && len(f.Rules) > 0 {
		g.Rule = f.Rules[0]
	}
	if info, ok := idx[g.Rule]; ok {
		g.Level = string(info.Level)
	}
	if g.Expected == "" && g.Observed == "" {
		g.Observed = oneLine(f.Message, 180)
	}
	if g.Observed == "" && len(f.Warnings) > 0 {
		g.Observed = oneLine(f.Warnings[0], 180)
	}
	return g
}

// shortQuote is verdict.ShortQuote: a quote the page shows with its path.
func shortQuote(q string) bool { return verdict.ShortQuote(q) }

// htmlProtocolOf builds one protocol's summary, matrix and check list.
func htmlProtocolOf(r *verdict.Report, name string, folded map[string]verdict.Status, byRule map[string][]verdict.Result, firstFinding, checkFinding map[string]string) htmlProtocol {
	p := protocolInfo(r, name)
	c := r.Tally()[name]
	hp := htmlProtocol{
		Name: name, Title: p.Title, Target: p.Target, Contract: p.Seed,
		Total: c.Total(), Covered: covered(p, r), RulesTotal: len(p.Rules),
	}
	for _, res := range resultsOf(r, name) {
		row := htmlCheck{Result: cleanResult(res)}
		if isFinding(res) {
			row.Finding = checkFinding[checkKey(res)]
		}
		hp.Checks = append(hp.Checks, row)
	}
	for _, st := range statuses {
		hp.Counts = append(hp.Counts, c[st])
	}
	for _, rule := range p.Rules {
		hr := htmlRule{
			ID: rule.ID, Title: rule.Title, Quote: rule.Quote, Choice: rule.Choice,
			Level: rule.Level, Status: ruleStatus(folded, rule.ID), Checks: len(byRule[rule.ID]),
			Finding: firstFinding[rule.ID],
		}
		if shortQuote(rule.Quote) {
			hr.QuotePath, hr.Around = rule.Path, rule.Around
		}
		hp.Rules = append(hp.Rules, hr)
	}
	return hp
}

// htmlFindingOf prepares one finding.
func htmlFindingOf(res verdict.Result, idx map[string]verdict.RuleInfo) htmlFinding {
	f := htmlFinding{Result: cleanResult(res), RuleLines: findingRules(res, idx)}
	f.Replayable = res.Seed != 0 || len(res.Sequence) > 0 || res.CaseFile != ""
	for _, e := range res.Transcript {
		f.Exchanges = append(f.Exchanges, htmlExchange{
			Method: printable(e.Method), URL: printable(e.URL), Status: e.Status, Note: printable(e.Note),
			Elapsed:   formatDuration(e.Elapsed),
			ReqHeader: printable(headerText(e.ReqHeader)), ReqBody: printable(cut(e.ReqBody, htmlBodyLimit)),
			RespHeader: printable(headerText(e.RespHeader)), Resp: printable(cut(e.RespBody, htmlBodyLimit)),
		})
	}
	return f
}

// cleanResult copies the text fields of a result that come from the target
// through printable: html/template escapes markup, but raw control
// characters would still make the page invalid and invisible to the reader.
func cleanResult(res verdict.Result) verdict.Result {
	res.Feature, res.Name = printable(res.Feature), printable(res.Name)
	res.Message, res.Expected, res.Observed = printable(res.Message), printable(res.Expected), printable(res.Observed)
	res.Warnings = printableAll(res.Warnings)
	res.Sequence = printableAll(res.Sequence)
	res.CaseFile = printable(res.CaseFile)
	return res
}

// printableAll applies printable to each string of a list, into a new list.
func printableAll(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = printable(s)
	}
	return out
}

// headerText renders headers one per line, sorted, as they appear on the wire.
func headerText(h map[string]string) string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\n", k, h[k])
	}
	return b.String()
}

// staleLines explains each stale --baseline entry, printable.
func staleLines(r *verdict.Report) []string {
	var out []string
	for _, e := range r.Stale {
		out = append(out, printable(staleMessage(e)))
	}
	return out
}

// runProblems are the run-level findings the page lists before the
// checks: harness errors, wrong targets and protocols of which nothing
// was checked, each as the summary words it.
func runProblems(r *verdict.Report) []string {
	out := append([]string{}, r.Errors...)
	for _, e := range r.NotProtocol {
		out = append(out, "WRONG TARGET: "+e)
	}
	for _, e := range r.NothingChecked() {
		out = append(out, "NOTHING CHECKED: "+e)
	}
	return out
}
