package suite

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
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
	start := time.Now()
	checks := pr.cfg.Checks
	if checks == 0 {
		checks = DefaultChecks
	}
	configureRapid(checks, pr.cfg.Seed)
	ex := &execution{pr: pr, prop: prop, ctx: ctx}
	tb := &propTB{name: prop.Name}
	tb.run(func() { rapid.Check(tb, ex.check) })
	res := ex.result(tb)
	res.Duration = time.Since(start)
	pr.cases.record(pr, &res, propertyCase(prop, ex.lastSeq))
	pr.cfg.Progress.Done(res)
	return res
}

// execution keeps the state of the latest rapid check.
type execution struct {
	pr      *protocolRun
	prop    Property
	ctx     context.Context
	lastSeq []Action
	lastErr error
	lastRec *driver.Recorder
}

// check is the rapid property: start a machine, draw and apply actions.
func (ex *execution) check(t *rapid.T) {
	ex.lastSeq, ex.lastErr, ex.lastRec = nil, nil, &driver.Recorder{}
	m, err := ex.prop.New(ex.ctx, ex.pr.env(ex.lastRec))
	if err != nil {
		ex.lastErr = err
		t.Fatalf("starting %s: %v", ex.prop.Name, err)
	}
	for i := 0; i < propertySteps; i++ {
		a := m.Draw(t)
		ex.lastSeq = append(ex.lastSeq, a)
		if err := m.Apply(ex.ctx, a); err != nil {
			ex.lastErr = err
			t.Fatalf("step %d %s: %v", i+1, a, err)
		}
	}
}

// result classifies the property's outcome.
func (ex *execution) result(tb *propTB) verdict.Result {
	res := verdict.Result{Protocol: ex.pr.p.Name, Feature: "properties", Name: ex.prop.Name, Kind: "property",
		Rules: ex.prop.Rules, Seed: tb.seed()}
	if !tb.Failed() {
		res.Status = verdict.Pass
		return res
	}
	err := ex.lastErr
	if err == nil {
		err = verdict.Errorf("rapid: %s", tb.message())
	}
	ex.pr.apply(&res, err)
	res.Stopped = res.FailedRule != ""
	if ex.lastRec != nil {
		res.Transcript = ex.lastRec.Exchanges()
	}
	for _, a := range ex.lastSeq {
		res.Sequence = append(res.Sequence, string(a))
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
