package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentgames/conformance/conformance/baseline"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

const runExamples = `  conformance run                                   # every protocol against the embedded reference
  conformance run --target https://play.example.com --protocol iyra --junit r.xml
  conformance run --target http://127.0.0.1:8080/game/phantom-press/api --protocol phantom-press \
      --rate 5 --max-writes 300 --json r.json --html r.html
  conformance run --protocol iyra --rule IYRA-ALLY-TRUST --seed 7
  conformance run --tags '@iyra and not @control' --checks 100
  conformance run --seed 7 --shard 2/3 --baseline known.json --json shard2.json
`

// outputs are the report files a run may write.
type outputs struct{ junit, json, html string }

// runOptions are the flags shared by run and replay.
type runOptions struct {
	target, basePath, protocol, tags, cases string
	transport, transcripts                  string
	settings                                suite.Settings
	baselinePath, shard                     string
	known                                   *baseline.File
	rules                                   listFlag
	seed                                    uint64
	checks, maxWrites, maxAgents            int
	exhaustQuotas                           bool
	failFast                                bool
	long                                    bool
	listUnselected                          bool
	rate                                    float64
	timeout, deadline                       time.Duration
	quiet, color                            bool
	out                                     outputs
}

func (o *runOptions) bind(fs *flagSet) {
	fs.StringVar(&o.target, "target", "", "base URL of the deployment to check; empty runs the embedded reference servers")
	fs.StringVar(&o.basePath, "base-path", "", "with --target: the path the API lives under when the URL has none, instead of the protocol's documented one (\"/\": the origin root)")
	fs.StringVar(&o.protocol, "protocol", "", "protocol(s) to check, comma-separated (required with --target)")
	fs.StringVar(&o.transport, "transport", "http", "http, or mcp: play the checks through the protocol's MCP tools (bounty)")
	fs.StringVar(&o.tags, "tags", "", "tag expression selecting scenarios, e.g. '@iyra and not @control'")
	fs.Var(&o.rules, "rule", "run only the checks of this rule ID (repeatable, comma-separated)")
	fs.Uint64Var(&o.seed, "seed", 0, "seed for property tests and the embedded servers (0: random, printed)")
	fs.IntVar(&o.checks, "checks", 0, "rapid checks per property test (0: 20, negative: none)")
	fs.Float64Var(&o.rate, "rate", 0, "at most this many requests per second to the target (0: unlimited)")
	fs.IntVar(&o.maxWrites, "max-writes", 0, "budget of state-changing requests; checks past it are skipped (0: unlimited, or a protocol's own live-target budget)")
	fs.IntVar(&o.maxAgents, "max-agents", 0, fmt.Sprintf("identities a live run may register to stay under per-key limits (0: %d)", suite.DefaultMaxAgents))
	fs.BoolVar(&o.long, "long", false, "live: also run the checks that wait out a documented window (a TTL, a grace period, a cooldown) in real time; the plan says how many and how long")
	fs.BoolVar(&o.listUnselected, "list-unselected", false, "with --rule or --tags: list in the plan every MUST rule the selection leaves out (by default only their count)")
	fs.BoolVar(&o.exhaustQuotas, "exhaust-quotas", false, "live: also check the documented daily limits by spending a throwaway identity's whole allowance (staging deployments only)")
	fs.BoolVar(&o.failFast, "fail-fast", false, "stop at the first failed check (one a --baseline lists does not stop it); the checks left are reported skipped")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "per-request timeout")
	fs.DurationVar(&o.deadline, "deadline", DefaultDeadline, "the whole run stops sending at this deadline; checks left report errors")
	fs.StringVar(&o.cases, "cases", "", "folder for failing-case files (default: a new temp folder)")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the summary, not live progress")
	fs.BoolVar(&o.color, "color", false, "colour the status words")
	fs.StringVar(&o.out.junit, "junit", "", "write a JUnit XML report to this file")
	fs.StringVar(&o.out.json, "json", "", "write a JSON report (results keyed by rule ID) to this file")
	fs.StringVar(&o.out.html, "html", "", "write a self-contained HTML report to this file")
	fs.StringVar(&o.transcripts, "transcripts", "findings", "which checks keep their transcripts in the report files: findings (fail, error, warn) or all")
	fs.StringVar(&o.baselinePath, "baseline", "", "JSON file of known failures (rule or check, with a reason): reported as expected; one that now passes is stale and fails the run")
	fs.StringVar(&o.shard, "shard", "", "run only part i of n of the selected checks, e.g. 2/3 (merge the shards' --json with conformance merge)")
	o.settings = suite.Settings{}
	bindProtocolFlags(fs, o.settings)
}

// bindProtocolFlags binds every registered protocol's own flags (Pyyol's
// credentials, FORGE's --allow-authoring) on fs, recording the values given
// into settings, which the run hands to the steps (suite.Config.Settings);
// CheckRegistry keeps their names apart. A value that does not parse is a
// usage error.
func bindProtocolFlags(fs *flagSet, settings suite.Settings) {
	for _, p := range protocols.All() {
		settings.Bind(fs.FlagSet, p.Flags)
	}
}

func (o *runOptions) config(stdout io.Writer) (suite.Config, error) {
	if err := o.checkValues(); err != nil {
		return suite.Config{}, err
	}
	ps, err := selectProtocols(o.protocol)
	if err == nil {
		ps, err = overTransport(ps, o.transport)
	}
	if err == nil {
		err = o.requiredLiveFlags(ps)
	}
	if err != nil {
		return suite.Config{}, err
	}
	if err := o.out.check(); err != nil {
		return suite.Config{}, err
	}
	cfg := suite.Config{Protocols: ps, Target: o.target, BasePath: o.basePath, Tags: o.tags, Rules: o.rules, Seed: o.seed,
		Checks: o.checks, Rate: o.rate, MaxWrites: o.maxWrites, Timeout: o.timeout, CaseDir: o.cases,
		MaxAgents: o.maxAgents, ExhaustQuotas: o.exhaustQuotas, Long: o.long, ListUnselected: o.listUnselected, Plan: stdout, Settings: o.settings,
		FailFast: o.failFast}
	if o.shard != "" {
		if cfg.Shard, err = suite.ParseShard(o.shard); err != nil {
			return suite.Config{}, err
		}
	}
	if o.baselinePath != "" {
		if o.known, err = loadBaseline(o.baselinePath); err != nil {
			return suite.Config{}, err
		}
		cfg.StopsRun = func(res verdict.Result) bool { return !o.known.Expects(res) }
	}
	if !o.quiet {
		cfg.Progress = report.NewConsole(stdout, report.ConsoleOptions{Color: o.color})
	}
	return cfg, nil
}

// requiredLiveFlags refuses a live run of a protocol without a flag it
// cannot go on without (suite.Flag.RequiredLive), before any request.
func (o *runOptions) requiredLiveFlags(ps []*suite.Protocol) error {
	if o.target == "" {
		return nil
	}
	for _, p := range ps {
		for _, f := range p.Flags {
			if f.RequiredLive && o.settings.String(f.Name) == "" {
				return fmt.Errorf("--protocol %s with --target needs --%s: %s", p.Name, f.Name, strings.TrimPrefix(usageText(f.Usage), p.Name+": "))
			}
		}
	}
	return nil
}

// usageText is a flag's usage without the backquotes that name its value.
func usageText(u string) string { return strings.ReplaceAll(u, "`", "") }

// checkValues refuses flag values that could only fail later, before any
// request is sent.
func (o *runOptions) checkValues() error {
	switch {
	case o.target != "" && o.protocol == "":
		return fmt.Errorf("--target needs --protocol: which contract should the deployment be checked against?")
	case o.timeout <= 0:
		return fmt.Errorf("--timeout must be positive, not %s", o.timeout)
	case o.deadline <= 0:
		return fmt.Errorf("--deadline must be positive, not %s", o.deadline)
	case o.rate < 0:
		return fmt.Errorf("--rate must be zero (unlimited) or positive, not %g", o.rate)
	case o.maxAgents < 0:
		return fmt.Errorf("--max-agents must be zero (the default) or positive, not %d", o.maxAgents)
	case o.maxWrites < 0:
		return fmt.Errorf("--max-writes must be zero (unlimited) or positive, not %d", o.maxWrites)
	case o.transcripts != "findings" && o.transcripts != "all":
		return fmt.Errorf("--transcripts must be findings or all, not %q", o.transcripts)
	case o.basePath != "" && o.target == "":
		return fmt.Errorf("--base-path needs --target: the embedded reference servers have their own paths")
	case o.basePath != "" && !strings.HasPrefix(o.basePath, "/"):
		return fmt.Errorf("--base-path must start with /, not %q", o.basePath)
	}
	if o.target != "" {
		if _, err := suite.ResolveBase(o.target, "/"); err != nil {
			return err
		}
	}
	return nil
}

// check fails fast when a report could not be written, so a long run is
// not wasted on a typo in a path.
func (out outputs) check() error {
	for flag, path := range map[string]string{"--junit": out.junit, "--json": out.json, "--html": out.html} {
		if path == "" {
			continue
		}
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s %s: folder %s does not exist", flag, path, dir)
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a folder, not a file", flag, path)
		}
	}
	return nil
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", "run [--target URL --protocol P] [flags]", runExamples, stdout, stderr)
	var o runOptions
	o.bind(fs)
	if code, done := fs.parse(args); done {
		return code
	}
	cfg, err := o.config(stdout)
	if err != nil {
		fmt.Fprintln(stderr, "conformance run:", err)
		return ExitError
	}
	ctx, stop := o.runContext(stdout)
	defer stop()
	rep, err := suite.Run(ctx, cfg)
	return finish(rep, err, o, stdout, stderr)
}

// DefaultDeadline bounds a whole run (--deadline): a default live run of
// every protocol takes a few minutes, so half an hour leaves room for
// --rate and slow targets while still always ending.
const DefaultDeadline = 30 * time.Minute

// runContext is the run's context: ended by an interrupt or by --deadline,
// which it announces unless --quiet.
func (o *runOptions) runContext(stdout io.Writer) (context.Context, func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(ctx, o.deadline)
	if !o.quiet {
		fmt.Fprintf(stdout, "deadline %s (--deadline): the run stops sending at %s\n", o.deadline,
			time.Now().Add(o.deadline).UTC().Format("15:04:05 UTC"))
	}
	return ctx, func() { cancel(); stop() }
}

// finish prints the summary, writes the report files and picks the exit
// code. A report file that cannot be written is a harness error.
func finish(rep *verdict.Report, err error, o runOptions, stdout, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return ExitError
	}
	if o.known != nil {
		o.known.Apply(rep)
	}
	fmt.Fprintf(stdout, "seed %d (re-run with --seed %d)\n", rep.Seed, rep.Seed)
	report.Summary(stdout, rep)
	if o.transcripts != "all" {
		rep = report.FindingsOnly(rep)
	}
	if err := writeReports(rep, o.out); err != nil {
		fmt.Fprintln(stderr, "conformance: writing reports:", err)
		return ExitError
	}
	return rep.ExitCode()
}

func writeReports(rep *verdict.Report, out outputs) error {
	writers := []struct {
		path  string
		write func(io.Writer, *verdict.Report) error
	}{{out.junit, report.WriteJUnit}, {out.json, report.WriteJSON}, {out.html, report.WriteHTML}}
	for _, w := range writers {
		if w.path == "" {
			continue
		}
		write := w.write
		if err := report.WriteFile(w.path, func(f io.Writer) error { return write(f, rep) }); err != nil {
			return err
		}
	}
	return nil
}
