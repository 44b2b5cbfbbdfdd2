package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/verdict"
)

const mergeExamples = `  conformance merge shard1.json shard2.json shard3.json --junit r.xml --html r.html --json r.json
`

// mergeCmd folds the JSON reports of a sharded run into one report, prints
// its summary and exits as the unsharded run would have.
func mergeCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("merge", "merge a.json b.json ... [--junit F] [--json F] [--html F]", mergeExamples, stdout, stderr)
	var out outputs
	fs.StringVar(&out.junit, "junit", "", "write the merged JUnit XML report to this file")
	fs.StringVar(&out.json, "json", "", "write the merged JSON report to this file")
	fs.StringVar(&out.html, "html", "", "write the merged HTML report to this file")
	if code, done := fs.parseWithArgs(args); done {
		return code
	}
	if len(fs.positional) == 0 {
		fmt.Fprintln(stderr, "conformance merge: name the shards' JSON reports (written with run --json)")
		return ExitError
	}
	if err := out.check(); err != nil {
		fmt.Fprintln(stderr, "conformance merge:", err)
		return ExitError
	}
	rep, err := mergeFiles(fs.positional)
	if err != nil {
		fmt.Fprintln(stderr, "conformance merge:", err)
		return ExitError
	}
	report.Summary(stdout, rep)
	if err := writeReports(rep, out); err != nil {
		fmt.Fprintln(stderr, "conformance merge: writing reports:", err)
		return ExitError
	}
	return rep.ExitCode()
}

// mergeFiles reads every JSON report and merges them, refusing a set that
// is not every shard of one run once (verdict.MergeNamed names the file).
func mergeFiles(paths []string) (*verdict.Report, error) {
	var reps []*verdict.Report
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		rep, err := report.ReadJSON(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		reps = append(reps, rep)
	}
	return verdict.MergeNamed(paths, reps)
}
