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
		{"vectors", "recompute every known-answer vector with the reference code", vectorsCmd},
		{"replay", "re-run a failing case written by an earlier run", replayCmd},
		{"merge", "merge the JSON reports of a sharded run into one report", mergeCmd},
		{"solve", "play a deployment's chain with the reference solver (forge)", solveCmd},
		{"simulate", "play one refereed Goofspiel match against a Pyyol agent (push endpoint or socket)", simulateCmd},
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

// flagSet is a verb's flags; its --help prints usage and examples.
type flagSet struct {
	*flag.FlagSet
	positional []string
}

func newFlagSet(name, synopsis, examples string, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: conformance %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nExamples:\n%s", examples)
	}
	return &flagSet{FlagSet: fs}
}

// parse parses flags for a verb that takes no positional argument: a stray
// one (a URL without --target, say) is a usage error, never ignored.
func (fs *flagSet) parse(args []string) (code int, done bool) {
	code, done = fs.parseWithArgs(args)
	if !done && len(fs.positional) > 0 {
		fmt.Fprintf(fs.Output(), "conformance %s: unexpected argument %q (flags start with --; did you mean --target %s?)\n",
			fs.Name(), fs.positional[0], fs.positional[0])
		return ExitError, true
	}
	return code, done
}

// parseWithArgs parses flags, allowing them after positional arguments
// too; it returns done=true with the exit code when parsing ended the
// command (help asked, or a bad flag).
func (fs *flagSet) parseWithArgs(args []string) (code int, done bool) {
	err := fs.Parse(args)
	for err == nil && fs.NArg() > 0 {
		rest := fs.Args()
		fs.positional = append(fs.positional, rest[0])
		err = fs.Parse(rest[1:])
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return ExitPass, true
	case err != nil:
		return ExitError, true
	}
	return 0, false
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
