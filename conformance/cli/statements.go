package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

const statementsExamples = `  conformance statements                             # every audited seed: risky platform duties with a rule
  conformance statements --protocol forge
  conformance run --target URL --protocol forge --allow-authoring --json forge.json
  conformance statements --protocol forge --report forge.json --min 95
                                                     # risky duties a check of that run decided (exit 1 under 95 %)
`

// statementFigures is one audited seed measured: how many statements,
// how many are high- or medium-risk platform duties, how many of those
// name a rule, and, with reports, how many have a rule a check decided.
type statementFigures struct {
	Folder     string   `json:"folder"`
	Statements int      `json:"statements"`
	Risky      int      `json:"risky_platform"`
	WithRule   int      `json:"with_rule"`
	Checked    *int     `json:"checked_in_reports,omitempty"`
	NoRule     []string `json:"without_rule"`
	NotChecked []string `json:"not_checked_in_reports,omitempty"`
}

func statementsCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("statements", "statements [--protocol P] [--report FILE]... [--min PERCENT] [--format text|json]",
		statementsExamples, stdout, stderr)
	protocol := fs.String("protocol", "", "audited seeds to measure, by protocol or spec folder, comma-separated (default: all)")
	var reports listFlag
	fs.Var(&reports, "report", "a run's JSON report (repeatable): count the risky duties a check of the run decided")
	min := fs.Float64("min", 0, "exit 1 when a measured share (with a rule, or checked in the reports) is under this percentage")
	format := fs.String("format", "text", "output format: text or json")
	if code, done := fs.parse(args); done {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "conformance statements: --format must be text or json, not %q\n", *format)
		return ExitError
	}
	folders, err := statementFolders(*protocol)
	if err != nil {
		fmt.Fprintln(stderr, "conformance statements:", err)
		return ExitError
	}
	decided, measured, err := decidedRules(reports)
	if err != nil {
		fmt.Fprintln(stderr, "conformance statements:", err)
		return ExitError
	}
	var all []statementFigures
	for _, f := range folders {
		doc, err := spec.LoadStatements(f)
		if err != nil {
			fmt.Fprintln(stderr, "conformance statements:", err)
			return ExitError
		}
		all = append(all, measure(doc, f, decided, measured[f]))
	}
	printFigures(stdout, all, *format)
	if below(all, *min) {
		return ExitFail
	}
	return ExitPass
}

// statementFolders maps --protocol (protocol names or spec folders) to
// spec folders, each once, in order.
func statementFolders(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return spec.Protocols(), nil
	}
	known := map[string]bool{}
	for _, f := range spec.Protocols() {
		known[f] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		folder := name
		if p, ok := protocols.Lookup(name); ok {
			folder = p.DataFolder()
		}
		if !known[folder] {
			return nil, fmt.Errorf("unknown protocol or spec folder %q (folders: %s)", name, strings.Join(spec.Protocols(), ", "))
		}
		if !seen[folder] {
			seen[folder] = true
			out = append(out, folder)
		}
	}
	return out, nil
}

// decidedRules reads the reports and returns the rules some check decided
// (passed, failed or warned: a skip or an error decides nothing) and the
// spec folders the reports measured.
func decidedRules(paths []string) (map[string]bool, map[string]bool, error) {
	decided, measured := map[string]bool{}, map[string]bool{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		rep, err := report.ReadJSON(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, r := range rep.Results {
			if p, ok := protocols.Lookup(r.Protocol); ok {
				measured[p.DataFolder()] = true
			}
			if r.Status != verdict.Pass && r.Status != verdict.Fail && r.Status != verdict.Warn {
				continue
			}
			for _, id := range r.Rules {
				decided[id] = true
			}
		}
	}
	return decided, measured, nil
}

// measure counts doc's risky platform duties, those naming a rule and, when
// the reports measured this folder, those with a rule a check decided.
func measure(doc *spec.Statements, folder string, decided map[string]bool, measured bool) statementFigures {
	fig := statementFigures{Folder: folder, Statements: len(doc.Statements), NoRule: []string{}}
	checked := 0
	for _, s := range doc.Statements {
		if !s.Risky() {
			continue
		}
		fig.Risky++
		if len(s.Rules) == 0 {
			fig.NoRule = append(fig.NoRule, s.Key())
			continue
		}
		fig.WithRule++
		if anyDecided(s.Rules, decided) {
			checked++
		} else if measured {
			fig.NotChecked = append(fig.NotChecked, s.Key()+" ("+strings.Join(s.Rules, ", ")+")")
		}
	}
	if measured {
		fig.Checked = &checked
	}
	return fig
}

func anyDecided(rules []string, decided map[string]bool) bool {
	for _, id := range rules {
		if decided[id] {
			return true
		}
	}
	return false
}

// below reports whether a measured share of some folder is under min %.
func below(all []statementFigures, min float64) bool {
	for _, f := range all {
		if f.Risky == 0 {
			continue
		}
		if percent(f.WithRule, f.Risky) < min || (f.Checked != nil && percent(*f.Checked, f.Risky) < min) {
			return true
		}
	}
	return false
}

func percent(n, of int) float64 { return 100 * float64(n) / float64(of) }

func printFigures(w io.Writer, all []statementFigures, format string) {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(all)
		return
	}
	for _, f := range all {
		if f.Risky == 0 {
			fmt.Fprintf(w, "%s: %d statements, none audited for risk yet\n", f.Folder, f.Statements)
			continue
		}
		fmt.Fprintf(w, "%s: %d statements; %d high- or medium-risk platform duties; %d name a rule (%.0f %%)",
			f.Folder, f.Statements, f.Risky, f.WithRule, percent(f.WithRule, f.Risky))
		if f.Checked != nil {
			fmt.Fprintf(w, "; %d have a rule a check of the reports decided (%.0f %%)", *f.Checked, percent(*f.Checked, f.Risky))
		}
		fmt.Fprintln(w)
		for _, k := range f.NoRule {
			fmt.Fprintf(w, "  no rule: %s\n", k)
		}
		for _, k := range f.NotChecked {
			fmt.Fprintf(w, "  not decided in the reports: %s\n", k)
		}
	}
}
