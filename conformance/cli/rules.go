package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

const rulesExamples = `  conformance rules                                  # every rule of every protocol
  conformance rules --protocol iyra --format json
  conformance rules --uncovered                      # rules no scenario checks (exit 1 if any)
  conformance rules --untampered                     # platform MUST rules no broken target fails (exit 1 if any)
`

// ruleRow is one catalogued rule with what checks it.
type ruleRow struct {
	Protocol   string   `json:"protocol"`
	spec.Rule           // id, level, title, quote, path, choice
	Scenarios  []string `json:"scenarios"`
	Properties []string `json:"properties,omitempty"`
	// Untampered says why no tamper test breaks this platform MUST rule
	// (spec/<folder>/tamper.json); empty when one does or the rule is no
	// platform MUST rule.
	Untampered string `json:"untampered,omitempty"`
}

// noReason is the reason shown for a platform MUST rule that the recorded
// coverage neither tampers nor explains (a rule newer than the record).
const noReason = "no tamper test recorded (a rule newer than spec/<folder>/tamper.json, or a gap in the tamper tables)"

func rulesCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("rules", "rules [--protocol P] [--uncovered] [--untampered] [--format text|json]", rulesExamples, stdout, stderr)
	protocol := fs.String("protocol", "", "protocol(s) to list, comma-separated (default: all)")
	uncovered := fs.Bool("uncovered", false, "list only rules that no scenario or property checks")
	untampered := fs.Bool("untampered", false, "list only platform MUST rules that no tamper test (a deliberately broken target) fails, with why")
	format := fs.String("format", "text", "output format: text or json")
	if code, done := fs.parse(args); done {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "conformance rules: --format must be text or json, not %q\n", *format)
		return ExitError
	}
	rows, err := catalogueRows(*protocol, *uncovered)
	if err == nil && *untampered {
		rows = untamperedRows(rows)
	}
	if err != nil {
		fmt.Fprintln(stderr, "conformance rules:", err)
		return ExitError
	}
	printRows(stdout, rows, *format)
	if (*uncovered || *untampered) && len(rows) > 0 {
		return ExitFail
	}
	return ExitPass
}

// untamperedRows keeps the platform MUST rules without a tamper test.
func untamperedRows(rows []ruleRow) []ruleRow {
	out := []ruleRow{}
	for _, r := range rows {
		if r.Untampered != "" {
			out = append(out, r)
		}
	}
	return out
}

func catalogueRows(protocol string, onlyUncovered bool) ([]ruleRow, error) {
	ps, err := selectProtocols(protocol)
	if err != nil {
		return nil, err
	}
	rows := []ruleRow{} // never nil: JSON readers expect [] when nothing matches
	for _, p := range ps {
		pr, err := protocolRows(p)
		if err != nil {
			return nil, err
		}
		for _, r := range pr {
			// A rule for agents is audited by serve --audit, never uncovered.
			if !onlyUncovered || (len(r.Scenarios) == 0 && len(r.Properties) == 0 && !r.ForAgents()) {
				rows = append(rows, r)
			}
		}
	}
	return rows, nil
}

func protocolRows(p *suite.Protocol) ([]ruleRow, error) {
	cat, err := p.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	scenarios, err := features.ParseFS(p.FeatureFS(), p.DataFolder())
	if err != nil {
		return nil, err
	}
	cov := features.Cover(cat, scenarios)
	tampering, err := spec.LoadTampering(p.DataFolder())
	if err != nil {
		return nil, err
	}
	rows := make([]ruleRow, 0, len(cat.Rules))
	for _, r := range cat.Rules {
		row := ruleRow{Protocol: p.Name, Rule: r, Scenarios: []string{}, Untampered: untamperedReason(r, tampering)}
		for _, s := range cov.ByRule[r.ID] {
			row.Scenarios = append(row.Scenarios, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Name))
		}
		row.Properties = propertiesOf(p, r.ID)
		rows = append(rows, row)
	}
	return rows, nil
}

// untamperedReason is why no tamper test breaks r, or "" when one does or r
// is no platform MUST rule (a rule for agents is audited, never tampered).
func untamperedReason(r spec.Rule, t *spec.Tampering) string {
	if r.Level != spec.Must || r.ForAgents() || t.Tampers(r.ID) {
		return ""
	}
	if why := t.Untampered[r.ID]; why != "" {
		return why
	}
	return noReason
}

func propertiesOf(p *suite.Protocol, id string) []string {
	var out []string
	for _, prop := range p.Properties {
		for _, r := range prop.Rules {
			if r == id {
				out = append(out, prop.Name)
			}
		}
	}
	return out
}

func printRows(w io.Writer, rows []ruleRow, format string) {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(rows)
		return
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%-28s %-9s %s\n", r.ID, r.Level, r.Title)
		fmt.Fprintf(w, "    quote: %q (%s)\n", clipText(r.Quote, 160), r.Path)
		if r.Choice != "" {
			fmt.Fprintf(w, "    reference choice: %s\n", clipText(r.Choice, 160))
		}
		if r.ForAgents() {
			fmt.Fprintln(w, "    side: agent (audited by serve --audit, never checked against a platform)")
		}
		for _, s := range r.Scenarios {
			fmt.Fprintf(w, "    scenario: %s\n", s)
		}
		for _, s := range r.Properties {
			fmt.Fprintf(w, "    property: %s\n", s)
		}
		if r.Untampered != "" {
			fmt.Fprintf(w, "    untampered: %s\n", r.Untampered)
		}
	}
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
