package cli

import (
	"fmt"
	"io"

	"github.com/agentgames/conformance/conformance/suite"
)

const replayExamples = `  conformance replay /tmp/conformance-cases-123/iyra-trust-gate-4711.json
  conformance replay case.json --target http://127.0.0.1:8080   # against another deployment
`

func replayCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", "replay FILE [--target URL] [flags]", replayExamples, stdout, stderr)
	var o runOptions
	o.bind(fs)
	if code, done := fs.parseWithArgs(args); done {
		return code
	}
	if len(fs.positional) != 1 {
		fmt.Fprintln(stderr, "conformance replay: give exactly one case file (see --help)")
		return ExitError
	}
	c, err := suite.LoadCase(fs.positional[0])
	if err != nil {
		fmt.Fprintln(stderr, "conformance replay:", err)
		return ExitError
	}
	if o.target == "" {
		o.target = c.Target
	}
	o.protocol = c.Protocol
	cfg, err := o.config(stdout)
	if err != nil {
		fmt.Fprintln(stderr, "conformance replay:", err)
		return ExitError
	}
	where := cfg.Target
	if where == "" {
		where = "the embedded reference"
	}
	fmt.Fprintf(stdout, "replaying %s %q (%s) against %s\n", c.Kind, c.Name, c.Rule, where)
	ctx, stop := o.runContext(stdout)
	defer stop()
	rep, err := suite.Replay(ctx, cfg, c)
	return finish(rep, err, o, stdout, stderr)
}
