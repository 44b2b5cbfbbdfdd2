package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentgames/conformance/conformance/forge"
)

const solveExamples = `  conformance solve forge --target http://127.0.0.1:8080
  FORGE_API_KEY=... conformance solve forge --target https://forge.example --levels 3 --rate 2
`

// solveCmd runs a protocol's reference solver against a deployment; FORGE
// is the only protocol with one.
func solveCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("solve", "solve forge --target URL [--levels N] [--rate R]", solveExamples, stdout, stderr)
	o := forge.SolveOptions{Out: stdout, APIKey: os.Getenv("FORGE_API_KEY")}
	fs.StringVar(&o.Target, "target", "", "base URL of the FORGE deployment")
	fs.IntVar(&o.MaxLevels, "levels", 0, "stop after clearing this many levels (0: until the frontier)")
	fs.Float64Var(&o.Rate, "rate", 0, "at most this many requests per second (0: unlimited)")
	fs.DurationVar(&o.Timeout, "timeout", 30*time.Second, "per-request timeout")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the solver's probes")
	if code, done := fs.parseWithArgs(args); done {
		return code
	}
	if len(fs.positional) != 1 || fs.positional[0] != "forge" || o.Target == "" {
		fmt.Fprintln(stderr, "conformance solve: usage: conformance solve forge --target URL (FORGE is the protocol with a reference solver)")
		return ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := forge.SolveChain(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "conformance solve:", err)
		return ExitError
	}
	fmt.Fprintf(stdout, "cleared %d levels %v\n", len(rep.Cleared), rep.Cleared)
	if rep.Wrong {
		return ExitFail
	}
	return ExitPass
}
