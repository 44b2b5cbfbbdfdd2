// Package cli is the conformance command line: it parses flags, calls the
// library and maps the outcome to an exit code. cmd/conformance is a thin
// main around Main so that every verb can be tested in-process.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

// Exit codes, the contract CI pipelines gate on.
const (
	ExitPass  = 0 // everything tested passed
	ExitFail  = 1 // a rule failed, the target is not the protocol (or a vector mismatched, a rule is uncovered)
	ExitError = 2 // harness error, bad usage, or nothing checked
)

// verb is one subcommand.
type verb struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func verbs() []verb {
	return []verb{
		{"run", "run the conformance suite against a target (default: the embedded reference)", runCmd},
		{"serve", "serve the reference engines over HTTP for offline agent testing", serveCmd},
		{"wait", "wait until a URL answers (a target, or serve started in the background)", waitCmd},
		{"spec", "spec diff: what a new version of a source contract breaks in the catalogue", specCmd},
		{"rules", "list the rule catalogue and the scenarios that check each rule", rulesCmd},
		{"statements", "measure the audited seed statements: risky platform duties with a rule, and decided by a run's report", statementsCmd},
		{"vectors", "recompute every known-answer vector with the reference code", vectorsCmd},
		{"replay", "re-run a failing case written by an earlier run", replayCmd},
		{"merge", "merge the JSON reports of a sharded run into one report", mergeCmd},
		{"solve", "play a deployment's chain with the reference solver (forge)", solveCmd},
		{"simulate", "play one refereed Goofspiel, Mafia or Monopoly match against a Pyyol agent (push endpoint or socket)", simulateCmd},
	}
}

// Main runs the command line and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(stdout)
		return ExitPass
	}
	for _, v := range verbs() {
		if v.name == args[0] {
			return v.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "conformance: unknown command %q\n\n", args[0])
	usage(stderr)
	return ExitError
}

func isHelp(a string) bool { return a == "help" || a == "-h" || a == "--help" || a == "-help" }

func usage(w io.Writer) {
	fmt.Fprintln(w, "conformance checks deployments of AI-agent game protocols against their published contracts.")
	fmt.Fprintln(w, "\nUsage: conformance <command> [flags]\n\nCommands:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-8s %s\n", v.name, v.summary)
	}
	fmt.Fprintf(w, "\nProtocols: %s\n", strings.Join(protocolNames(), ", "))
	fmt.Fprintln(w, "\nRun 'conformance <command> --help' for a command's flags and examples.")
	fmt.Fprintln(w, "Exit codes: 0 all passed, 1 a rule failed or the target is not the protocol (WRONG TARGET), 2 harness error, bad usage or nothing checked.")
}

func protocolNames() []string {
	var names []string
	for _, p := range protocols.All() {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}

// flagSet is a verb's flags; its --help prints usage and examples to
// stdout, and a mistyped flag gets one line naming the nearest flag on
// stderr instead of the whole usage.
type flagSet struct {
	*flag.FlagSet
	positional     []string
	stdout, stderr io.Writer
}

func newFlagSet(name, synopsis, examples string, stdout, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: conformance %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nExamples:\n%s", examples)
	}
	return &flagSet{FlagSet: fs, stdout: stdout, stderr: stderr}
}

// parse parses flags for a verb that takes no positional argument: a stray
// one (a URL without --target, say) is a usage error, never ignored.
func (fs *flagSet) parse(args []string) (code int, done bool) {
	code, done = fs.parseWithArgs(args)
	if !done && len(fs.positional) > 0 {
		fmt.Fprintf(fs.stderr, "conformance %s: unexpected argument %q (flags start with --; did you mean --target %s?)\n",
			fs.Name(), fs.positional[0], fs.positional[0])
		return ExitError, true
	}
	return code, done
}

// parseWithArgs parses flags, allowing them after positional arguments
// too; it returns done=true with the exit code when parsing ended the
// command (help asked, or a bad flag).
func (fs *flagSet) parseWithArgs(args []string) (code int, done bool) {
	var said strings.Builder
	fs.SetOutput(&said)
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	for err == nil && fs.NArg() > 0 {
		rest := fs.Args()
		fs.positional = append(fs.positional, rest[0])
		err = fs.Parse(rest[1:])
	}
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(fs.stdout)
		fs.Usage()
		return ExitPass, true
	case err != nil:
		fs.SetOutput(fs.stderr)
		fmt.Fprintf(fs.stderr, "conformance %s: %s\n", fs.Name(), fs.explain(err))
		return ExitError, true
	}
	fs.SetOutput(fs.stderr)
	return 0, false
}

// explain words a parse error for a person: an unknown flag names the
// nearest known one, and every error says where the full list is.
func (fs *flagSet) explain(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		msg = "unknown flag --" + name
		if near := fs.nearestFlag(name); near != "" {
			msg += " (did you mean --" + near + "?)"
		}
	}
	return msg + "; 'conformance " + fs.Name() + " --help' lists the flags"
}

// nearestFlag is the defined flag closest to name by edit distance (a
// flag name starts with counts as one edit), if it is close enough to be a
// typo: at most a third of its letters off.
func (fs *flagSet) nearestFlag(name string) string {
	best, bestDist := "", len(name)/3+2
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// selectProtocols resolves a comma-separated --protocol value; empty means
// all protocols.
func selectProtocols(list string) ([]*suite.Protocol, error) {
	if strings.TrimSpace(list) == "" {
		return protocols.All(), nil
	}
	var out []*suite.Protocol
	for _, name := range strings.Split(list, ",") {
		p, ok := protocols.Lookup(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("unknown protocol %q (known: %s)", name, strings.Join(protocolNames(), ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

// listFlag collects a repeatable, comma-separable flag such as --rule.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}
