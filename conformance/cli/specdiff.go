package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/specdiff"
)

const specExamples = `  conformance spec diff --protocol iyra new-play.json      # what a new contract version breaks
  conformance spec diff --protocol pyyol-gateway docs-v2.md --format json
Exit codes: 0 every rule's quote still stands, 1 a rule is broken (changed, moved or gone), 2 usage or read error.
`

// specCmd groups the verbs for spec authors; diff is the one so far.
func specCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprintf(stdout, "Usage: conformance spec diff --protocol P NEW [--format text|json]\n\nExamples:\n%s", specExamples)
		return ExitPass
	}
	if args[0] != "diff" {
		fmt.Fprintf(stderr, "conformance spec: unknown subcommand %q (known: diff)\n", args[0])
		return ExitError
	}
	return specDiffCmd(args[1:], stdout, stderr)
}

// specDiffCmd compares a new version of a protocol's source contract with
// its catalogue (specdiff.Compare) and exits 1 when a rule is broken.
func specDiffCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("spec diff", "spec diff --protocol P NEW [--format text|json]", specExamples, stdout, stderr)
	protocol := fs.String("protocol", "", "the protocol whose catalogue to check (one)")
	format := fs.String("format", "text", "output format: text or json")
	if code, done := fs.parseWithArgs(args); done {
		return code
	}
	rep, err := specDiff(*protocol, *format, fs.positional)
	if err != nil {
		fmt.Fprintln(stderr, "conformance spec diff:", err)
		return ExitError
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		printSpecDiff(stdout, rep, fs.positional[0])
	}
	if rep.HasBrokenRules() {
		return ExitFail
	}
	return ExitPass
}

// specDiff checks the arguments, reads the new contract and compares it.
func specDiff(protocol, format string, positional []string) (*specdiff.Report, error) {
	switch {
	case format != "text" && format != "json":
		return nil, fmt.Errorf("--format must be text or json, not %q", format)
	case protocol == "" || strings.Contains(protocol, ","):
		return nil, fmt.Errorf("--protocol names exactly one protocol (known: %s)", strings.Join(protocolNames(), ", "))
	case len(positional) != 1:
		return nil, fmt.Errorf("give exactly one new contract file, got %d arguments", len(positional))
	}
	ps, err := selectProtocols(protocol)
	if err != nil {
		return nil, err
	}
	cat, err := ps[0].FolderCatalogue()
	if err != nil {
		return nil, err
	}
	old, err := ps[0].SourceContract(cat)
	if err != nil {
		return nil, err
	}
	next, err := os.ReadFile(positional[0])
	if err != nil {
		return nil, err
	}
	rep, err := specdiff.Compare(cat, old, next)
	if err != nil {
		return nil, err
	}
	nameReliance(rep)
	return rep, nil
}

// nameReliance names, beside each broken rule, the run flags whose
// defaults stand on its words (suite.Flag.Rules).
func nameReliance(rep *specdiff.Report) {
	for i := range rep.Broken {
		for _, p := range protocols.All() {
			for _, f := range p.Flags {
				if slices.Contains(f.Rules, rep.Broken[i].ID) {
					rep.Broken[i].ReliedOnBy = append(rep.Broken[i].ReliedOnBy, "--"+f.Name+" (its default)")
				}
			}
		}
	}
}

func printSpecDiff(w io.Writer, rep *specdiff.Report, file string) {
	fmt.Fprintf(w, "spec diff %s: %d rules checked against %s\n", rep.Protocol, rep.Rules, file)
	for _, b := range rep.Broken {
		fmt.Fprintf(w, "BROKEN %s (%s) %s at %s\n", b.ID, b.Level, b.Status, b.Path)
		fmt.Fprintf(w, "    quote: %q\n", clipText(b.Quote, 200))
		for _, p := range b.Where {
			fmt.Fprintf(w, "    now at: %s\n", p)
		}
		if b.Detail != "" {
			fmt.Fprintf(w, "    %s\n", b.Detail)
		}
		if b.NowReads != "" {
			fmt.Fprintf(w, "    now reads: %q\n", clipText(b.NowReads, 200))
		}
		for _, f := range b.ReliedOnBy {
			fmt.Fprintf(w, "    relied on by: %s\n", f)
		}
	}
	for _, d := range rep.Removed {
		fmt.Fprintf(w, "REMOVED %s: %q\n", d.Path, clipText(d.Text, 200))
	}
	for _, r := range rep.Reindexed {
		fmt.Fprintf(w, "PATH %s %s -> %s (the same words, a list index shifted)\n", r.ID, r.Path, r.Now)
	}
	for _, f := range rep.NewFields {
		fmt.Fprintf(w, "NEW FIELD %s\n", f)
	}
	for _, s := range rep.Uncatalogued {
		fmt.Fprintf(w, "UNCATALOGUED %s [%s]: %q\n", s.Path, strings.Join(s.Kinds, ", "), clipText(s.Text, 200))
		if len(s.Beside) > 0 {
			fmt.Fprintf(w, "    beside: %s (a check on these may rely on it)\n", strings.Join(s.Beside, ", "))
		}
	}
	fmt.Fprintf(w, "%d broken rules, %d new fields or sections, %d uncatalogued normative statements, %d removed list items, %d paths to update\n",
		len(rep.Broken), len(rep.NewFields), len(rep.Uncatalogued), len(rep.Removed), len(rep.Reindexed))
}
