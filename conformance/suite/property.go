package suite

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// propertySteps is the length of one check's action sequence.
const propertySteps = 30

var rapidInit sync.Once

// configureRapid points rapid's global flags at this run: rapid reads them
// at check time and asks testing.Short, which outside `go test` needs
// testing.Init and a parsed (empty) command line; fail files are never
// written into the user's working directory.
func configureRapid(checks int, seed uint64) {
	rapidInit.Do(func() {
		testing.Init()
		if !flag.Parsed() {
			flag.CommandLine.Parse(nil)
		}
	})
	flag.Set("rapid.checks", strconv.Itoa(checks))
	flag.Set("rapid.seed", strconv.FormatUint(seed, 10))
	flag.Set("rapid.nofailfile", "true")
}

// runProperty runs one rapid state machine and folds it into a result. The
// last failing execution rapid performs is the shrunk one, so the sequence
// recorded there is the minimal failing sequence.
func (pr *protocolRun) runProperty(ctx context.Context, prop Property) verdict.Result {
	pr.cfg.Progress.Begin(pr.p.Name, "properties", prop.Name)
	if pr.failFastStop() {
		res := verdict.Result{Protocol: pr.p.Name, Feature: "properties", Name: prop.Name, Kind: "property",
			Rules: prop.Rules, Status: verdict.Skip, Message: stoppedByFailFast}
		pr.cfg.Progress.Done(res)
		return res
	}
	start := time.Now()
	checks := pr.cfg.Checks
	if checks == 0 {
		checks = DefaultChecks
	}
	configureRapid(checks, pr.cfg.Seed)
	ex := &execution{pr: pr, prop: prop, ctx: ctx}
	if pr.ref == nil {
		ex.maxStarts = checks + liveShrinkBudget
	}
	tb := &propTB{name: prop.Name}
	tb.run(func() { rapid.Check(tb, ex.check) })
	res := ex.result(tb)
	res.Duration = time.Since(start)
	pr.cases.record(pr, &res, propertyCase(prop, ex.failSeq()))
	pr.noteResult(res)
	pr.cfg.Progress.Done(res)
	return res
}

// liveShrinkBudget is how many machines (sessions, runs) shrinking may start
// on a live target beyond the checks themselves: every start spends the
// deployment's quota, so a failure is reported with the smallest sequence
// found within it.
const liveShrinkBudget = 30

// execution is one property's rapid run: it counts the machines started,
// keeps the latest failure, and stops touching the target after a harness
// error, since shrinking through an outage or an exhausted quota only
// spends more of it.
type execution struct {
	pr        *protocolRun
	prop      Property
	ctx       context.Context
	starts    int
	maxStarts int // 0: unlimited
	halted    bool
	fail      *failedCheck
	findings  map[string]error // soft findings of every check, by message
}

// collect keeps the soft findings (schema mismatches, departures from
// reference choices) of one check, once each across all checks.
func (ex *execution) collect(rec *driver.Recorder) {
	for _, f := range rec.Findings() {
		if ex.findings == nil {
			ex.findings = map[string]error{}
		}
		ex.findings[f.Error()] = f
	}
}

// failedCheck is the latest check that failed, with its action sequence.
type failedCheck struct {
	seq []Action
	err error
	rec *driver.Recorder
}

// check is the rapid property: start a machine, draw and apply actions.
func (ex *execution) check(t *rapid.T) {
	if ex.halted || (ex.maxStarts > 0 && ex.starts >= ex.maxStarts) {
		t.SkipNow() // an invalid case to rapid: shrinking ends without a request
	}
	ex.starts++
	rec := &driver.Recorder{}
	defer ex.collect(rec)
	env := ex.pr.env(rec)
	defer env.close()
	m, err := ex.prop.New(ex.ctx, env)
	if err != nil {
		ex.failed(nil, err, rec)
		t.Fatalf("starting %s: %v", ex.prop.Name, err)
	}
	var seq []Action
	for i := 0; i < propertySteps; i++ {
		a := m.Draw(t)
		seq = append(seq, a)
		if err := m.Apply(ex.ctx, a); err != nil {
			ex.failed(seq, err, rec)
			t.Fatalf("step %d %s: %v", i+1, a, err)
		}
	}
}

// failed records a failing check. A broken rule replaces the previous
// failure (rapid is shrinking it); a harness error or skip halts the
// property but never hides a broken rule already found.
func (ex *execution) failed(seq []Action, err error, rec *driver.Recorder) {
	var f *verdict.Failure
	if errors.As(err, &f) {
		ex.fail = &failedCheck{seq: seq, err: err, rec: rec}
		return
	}
	ex.halted = true
	if ex.fail == nil {
		ex.fail = &failedCheck{seq: seq, err: err, rec: rec}
	}
}

func (ex *execution) failSeq() []Action {
	if ex.fail == nil {
		return nil
	}
	return ex.fail.seq
}

// result classifies the property's outcome from the latest failure, which
// is the most shrunk one; rapid's own message only explains a failure no
// check recorded.
func (ex *execution) result(tb *propTB) verdict.Result {
	res := verdict.Result{Protocol: ex.pr.p.Name, Feature: "properties", Name: ex.prop.Name, Kind: "property",
		Rules: ex.prop.Rules, Seed: tb.seed()}
	switch {
	case ex.fail != nil:
		ex.pr.apply(&res, ex.fail.err)
		res.Transcript = ex.fail.rec.Exchanges()
		for _, a := range ex.fail.seq {
			res.Sequence = append(res.Sequence, string(a))
		}
	case tb.Failed():
		ex.pr.apply(&res, verdict.Errorf("rapid: %s", tb.message()))
	default:
		res.Status = verdict.Pass
	}
	res.Stopped = res.FailedRule != ""
	for _, msg := range sortedKeys(ex.findings) {
		ex.pr.applyFinding(&res, ex.findings[msg])
	}
	return res
}

// propTB is the rapid.TB the runner hands rapid outside `go test`: it keeps
// the log and turns FailNow into a panic that run recovers.
type propTB struct {
	name   string
	mu     sync.Mutex
	failed bool
	logs   []string
}

type failNow struct{}

func (tb *propTB) run(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(failNow); !ok {
				tb.fail(fmt.Sprintf("panic: %v", r))
			}
		}
	}()
	f()
}

func (tb *propTB) fail(msg string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.failed = true
	tb.logs = append(tb.logs, msg)
}

func (tb *propTB) log(msg string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.logs = append(tb.logs, msg)
}

func (tb *propTB) Helper()                         {}
func (tb *propTB) Name() string                    { return tb.name }
func (tb *propTB) Logf(format string, args ...any) { tb.log(fmt.Sprintf(format, args...)) }
func (tb *propTB) Log(args ...any)                 { tb.log(fmt.Sprint(args...)) }
func (tb *propTB) Skipf(format string, args ...any) {
	tb.log(fmt.Sprintf(format, args...))
	tb.SkipNow()
}
func (tb *propTB) Skip(args ...any)                  { tb.log(fmt.Sprint(args...)); tb.SkipNow() }
func (tb *propTB) SkipNow()                          { panic(failNow{}) }
func (tb *propTB) Errorf(format string, args ...any) { tb.fail(fmt.Sprintf(format, args...)) }
func (tb *propTB) Error(args ...any)                 { tb.fail(fmt.Sprint(args...)) }
func (tb *propTB) Fatalf(format string, args ...any) {
	tb.fail(fmt.Sprintf(format, args...))
	tb.FailNow()
}
func (tb *propTB) Fatal(args ...any) { tb.fail(fmt.Sprint(args...)); tb.FailNow() }
func (tb *propTB) FailNow()          { tb.Fail(); panic(failNow{}) }
func (tb *propTB) Fail()             { tb.fail("failed") }

// Failed reports whether rapid declared a failure.
func (tb *propTB) Failed() bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.failed
}

var seedPattern = regexp.MustCompile(`rapid\.seed=(\d+)`)

// seed extracts the failing check's seed from rapid's report.
func (tb *propTB) seed() uint64 {
	for _, l := range tb.logs {
		if m := seedPattern.FindStringSubmatch(l); m != nil {
			s, _ := strconv.ParseUint(m[1], 10, 64)
			return s
		}
	}
	return 0
}

func (tb *propTB) message() string {
	for _, l := range tb.logs {
		if l != "failed" {
			return l
		}
	}
	return "failed"
}

// ReplaySequence applies a saved action sequence to a fresh machine: the
// replay of a shrunk property failure, without rapid.
func ReplaySequence(ctx context.Context, prop Property, env *Env, seq []Action) error {
	m, err := prop.New(ctx, env)
	if err != nil {
		return err
	}
	for i, a := range seq {
		if err := m.Apply(ctx, a); err != nil {
			return fmt.Errorf("step %d %s: %w", i+1, a, err)
		}
	}
	return nil
}

var errNoProperty = errors.New("no such property")

func sortedKeys(m map[string]error) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
