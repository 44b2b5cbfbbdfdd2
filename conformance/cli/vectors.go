package cli

import (
	"fmt"
	"io"

	"github.com/agentgames/conformance/vectors"
)

const vectorsExamples = `  conformance vectors                                # every protocol's known answers
  conformance vectors --protocol phantom-press
`

func vectorsCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("vectors", "vectors [--protocol P]", vectorsExamples, stdout, stderr)
	protocol := fs.String("protocol", "", "protocol(s) to check, comma-separated (default: all)")
	if code, done := fs.parse(args); done {
		return code
	}
	ps, err := selectProtocols(*protocol)
	if err != nil {
		fmt.Fprintln(stderr, "conformance vectors:", err)
		return ExitError
	}
	total, bad := 0, 0
	for _, p := range ps {
		files, err := p.Vectors()
		if err != nil {
			fmt.Fprintln(stderr, "conformance vectors:", err)
			return ExitError
		}
		if p.Vector == nil || len(files) == 0 {
			fmt.Fprintf(stdout, "%-14s no vectors\n", p.Name)
			continue
		}
		mismatches, n := vectors.Check(files, p.Vector)
		total, bad = total+n, bad+len(mismatches)
		fmt.Fprintf(stdout, "%-14s %d vectors in %d files, %d mismatches\n", p.Name, n, len(files), len(mismatches))
		for _, m := range mismatches {
			fmt.Fprintf(stdout, "  MISMATCH %s %s\n%s\n", m.File, m.ID, indent(m.Diff))
		}
	}
	fmt.Fprintf(stdout, "%d vectors checked, %d mismatches\n", total, bad)
	switch {
	case bad > 0:
		return ExitFail
	case total == 0:
		return ExitError
	}
	return ExitPass
}

func indent(s string) string {
	out := "    "
	for _, r := range s {
		out += string(r)
		if r == '\n' {
			out += "    "
		}
	}
	return out
}
