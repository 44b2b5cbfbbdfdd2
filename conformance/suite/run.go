package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// Config is one run's settings, as the CLI flags set them.
type Config struct {
	Protocols []*Protocol
	// Target is the deployment's base URL; empty runs against the embedded
	// reference servers. A URL without a path gets the protocol's BasePath.
	Target string
	// BasePath, when set, replaces the protocol's BasePath for a Target
	// without a path: "/" names a deployment served at its origin root
	// (the bounty's contract lists its endpoints there, while the kit's
	// serve mounts it under /bounty).
	BasePath string
	// Tags is a godog tag expression; Rules selects scenarios and properties
	// by rule ID.
	Tags  string
	Rules []string
	// Scenarios, when set, runs only these "file:line" scenarios (replay).
	Scenarios []string
	// Seed seeds property tests and the embedded servers; 0 picks one.
	Seed uint64
	// Checks is the number of rapid checks per property (0: DefaultChecks,
	// negative: no property tests).
	Checks    int
	Rate      float64
	MaxWrites int
	// MaxAgents bounds the identities a live run registers to spread its
	// work under per-key limits (--max-agents; 0: DefaultMaxAgents).
	MaxAgents int
	// ExhaustQuotas runs the @exhaust scenarios against a live target
	// (--exhaust-quotas): they spend a throwaway identity's whole daily
	// allowance to reach the documented limits.
	ExhaustQuotas bool
	// Long runs the @long scenarios against a live target (--long): they
	// wait out a documented window (a TTL, a grace period, a cooldown) in
	// real time, minutes a default run does not spend. The embedded run
	// always runs them on its adjustable clock.
	Long bool
	// ListUnselected is --list-unselected: the live plan lists every MUST
	// rule --rule or --tags left out, instead of counting them, for a
	// reader who asks which they are.
	ListUnselected bool
	// Plan receives the live plan of each protocol before its first
	// request (liveplan.go); nil discards it.
	Plan    io.Writer
	Timeout time.Duration
	// Progress receives live progress; nil discards it.
	Progress Progress
	// CaseDir is where failing cases are written for `conformance replay`;
	// empty means a fresh folder under the OS temp dir.
	CaseDir string
	// NoProperties skips the property tests (features only).
	NoProperties bool
	// FailFast stops the run at its first failed check (--fail-fast): the
	// checks left are reported skipped, saying so, and the run exits 1. A
	// gate that needs only a yes or no spends no more time on a broken
	// build, and the tamper tables, which need one failure naming a rule,
	// stop as soon as they have it.
	FailFast bool
	// StopsRun, when set, tells which failures stop a FailFast run (nil:
	// every one): the CLI passes those its --baseline does not list, and
	// a tamper table those naming the rule it breaks.
	StopsRun func(verdict.Result) bool
	// Shard runs only this part of the selected checks (--shard i/n).
	Shard Shard
	// Settings are the values of the protocols' own flags (Protocol.Flags)
	// for this run: credentials, permissions, waits.
	Settings Settings
}

// DefaultChecks is the number of rapid checks per property when Config.Checks
// is zero.
const DefaultChecks = 20

// Progress is told about each check as it runs.
type Progress interface {
	Start(protocol string, total int)
	Begin(protocol, feature, name string)
	Done(r verdict.Result)
}

type silent struct{}

func (silent) Start(string, int)            {}
func (silent) Begin(string, string, string) {}
func (silent) Done(verdict.Result)          {}

// run is the state of one Run call shared by all its protocols.
type run struct {
	cfg     Config
	limiter *driver.Limiter
	budget  *driver.Budget
	secrets *driver.Secrets
	shared  *Shared
	cases   *caseWriter
	checks  int // selected checks numbered so far, for --shard
	failed  atomic.Bool
}

// stoppedByFailFast is the reason a check left after a failure under
// --fail-fast is skipped.
const stoppedByFailFast = "not run: --fail-fast stopped the run at its first failure"

// failFastStop reports whether --fail-fast has stopped the run: a check
// has failed and every check after it is skipped.
func (r *run) failFastStop() bool {
	return r.cfg.FailFast && r.failed.Load()
}

// noteResult records a failed check for --fail-fast.
func (r *run) noteResult(res verdict.Result) {
	if res.Status == verdict.Fail && (r.cfg.StopsRun == nil || r.cfg.StopsRun(res)) {
		r.failed.Store(true)
	}
}

// Run runs the selected protocols against the target and returns the report.
// Only an unusable configuration returns an error; everything a target does
// ends up in the report.
func Run(ctx context.Context, cfg Config) (*verdict.Report, error) {
	if _, err := parseTags(selection(cfg.Tags, cfg.Rules)); err != nil {
		return nil, err
	}
	if len(cfg.Protocols) == 0 {
		return nil, errors.New("no protocol selected")
	}
	if err := checkRules(cfg.Protocols, cfg.Rules); err != nil {
		return nil, err
	}
	r, rep := newRun(cfg)
	for _, p := range cfg.Protocols {
		r.protocol(ctx, p, rep)
	}
	if err := r.cases.failure(); err != nil {
		rep.Errors = append(rep.Errors, err.Error())
	}
	rep.Duration = time.Since(rep.Started)
	return rep, nil
}

// checkRules refuses --rule IDs that no selected protocol catalogues: a
// typo would otherwise select nothing and read as "nothing tested".
func checkRules(ps []*Protocol, ids []string) error {
	for _, id := range ids {
		if !catalogued(ps, strings.TrimPrefix(id, "@")) {
			return fmt.Errorf("unknown rule %s: no selected protocol catalogues it (see conformance rules)", id)
		}
	}
	return nil
}

func catalogued(ps []*Protocol, id string) bool {
	for _, p := range ps {
		if cat, err := p.catalogue(); err == nil {
			if _, ok := cat.Rule(id); ok {
				return true
			}
		}
	}
	return false
}

// newRun fills in defaults and starts an empty report.
func newRun(cfg Config) (*run, *verdict.Report) {
	if cfg.Seed == 0 {
		cfg.Seed = rand.Uint64()
	}
	if cfg.Progress == nil {
		cfg.Progress = silent{}
	}
	r := &run{cfg: cfg, limiter: driver.NewLimiter(cfg.Rate), budget: driver.NewBudget(cfg.MaxWrites),
		secrets: &driver.Secrets{}, shared: &Shared{}, cases: &caseWriter{dir: cfg.CaseDir}}
	for _, v := range secretSettings(cfg.Protocols, cfg.Settings) {
		r.secrets.Add(v) // credentials from protocol flags appear in no output
	}
	rep := &verdict.Report{Tool: "conformance", Started: time.Now(), Seed: cfg.Seed, Embedded: cfg.Target == "",
		Shard: cfg.Shard.String(), Selection: recordSelection(cfg)}
	return r, rep
}

// protocol runs one protocol and appends its results to rep.
func (r *run) protocol(ctx context.Context, p *Protocol, rep *verdict.Report) {
	pr, err := r.prepare(ctx, p)
	if err != nil {
		rep.Errors = append(rep.Errors, fmt.Sprintf("%s: %v", p.Name, err))
		return
	}
	defer pr.close()
	rep.Protocols = append(rep.Protocols, pr.info())
	if !pr.probe(ctx, rep) || !pr.preflight(ctx, rep) {
		return
	}
	scenarios, err := pr.selectedScenarios()
	if err != nil {
		rep.Errors = append(rep.Errors, fmt.Sprintf("%s: %v", p.Name, err))
		return
	}
	props := pr.selectedProperties()
	if pr.matched == 0 && len(r.cfg.Scenarios) == 0 { // a replay explains its own
		rep.Errors = append(rep.Errors, fmt.Sprintf("%s: nothing selected: %s", p.Name, pr.whyNothing()))
		return
	}
	if len(scenarios)+len(props) == 0 {
		return // the selection is not empty, the other shards run it
	}
	if pr.ref == nil {
		left := pr.notLiveMust(scenarios, props)
		pr.printPlan(scenarios, props, left)
		rep.Protocols[len(rep.Protocols)-1].NotLive = blockedOnly(pr.notLiveMust(pr.wholeScenarios, pr.wholeProps))
	}
	r.cfg.Progress.Start(p.Name, len(scenarios)+len(props))
	rep.Results = append(rep.Results, pr.runFeatures(ctx)...)
	for _, prop := range props {
		rep.Results = append(rep.Results, pr.runProperty(ctx, prop))
	}
}

// protocolRun is one protocol's part of a run: its target, catalogue and the
// driver every scenario derives its own from.
type protocolRun struct {
	*run
	p       *Protocol
	cat     *spec.Catalogue
	base    string
	drv     *driver.HTTP
	breaker *driver.Breaker
	ref     http.Handler
	clock   *Clock
	stop    func()
	feature map[string]string   // feature file -> feature name
	chosen  map[string]string   // scenario key -> "file:line" of the scenarios this pass runs
	seen    map[string]int      // pickles met so far per file and name, in this pass
	passes  []map[string]string // the selected scenarios, split into passes
	matched int                 // checks the selection keeps, in every shard
	// wholeScenarios and wholeProps are the selection before sharding: the
	// MUST rules a live run cannot check are the whole run's, the same
	// in every shard, so the shards' reports merge into the unsharded one.
	wholeScenarios []features.Scenario
	wholeProps     []Property
}

// scenarioKey identifies a scenario across the kit's parse and godog's,
// which share no IDs: the file, the name, and which occurrence of that name
// in the file it is (outline rows may share a name). Both walk a file's
// pickles in the same order.
func scenarioKey(file, name string, n int) string {
	return fmt.Sprintf("%s\x00%s\x00%d", file, name, n)
}

// nextKey returns the key of the next pickle named name in file.
func nextKey(seen map[string]int, file, name string) string {
	base := file + "\x00" + name
	n := seen[base]
	seen[base] = n + 1
	return scenarioKey(file, name, n)
}

func (r *run) prepare(ctx context.Context, p *Protocol) (*protocolRun, error) {
	cat, err := p.catalogue()
	if err != nil {
		return nil, err
	}
	pr := &protocolRun{run: r, p: p, cat: cat, stop: func() {}}
	target := r.cfg.Target
	if target == "" {
		if target, err = pr.startReference(); err != nil {
			return nil, err
		}
	}
	base := p.BasePath
	if r.cfg.BasePath != "" && r.cfg.Target != "" {
		base = r.cfg.BasePath
	}
	if pr.base, err = ResolveBase(target, base); err != nil {
		return nil, err
	}
	if err := pr.newDriver(); err != nil {
		pr.close()
		return nil, err
	}
	return pr, nil
}

func (pr *protocolRun) close() { pr.stop() }

// startReference serves the protocol's reference on a loopback port.
func (pr *protocolRun) startReference() (string, error) {
	pr.clock = NewClock(time.Now())
	pr.ref = pr.p.Reference(ReferenceConfig{Seed: ReferenceSeed(pr.cfg.Seed), Now: pr.clock.Now})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("starting the embedded reference: %w", err)
	}
	srv := &http.Server{Handler: pr.ref, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	pr.stop = func() { srv.Close() }
	return "http://" + ln.Addr().String(), nil
}

// ReferenceSeed is the seed a reference server gets from a run's or serve's
// --seed N: the same 64 bits read as a signed number, so every N gives its
// own world and `serve --seed N` builds exactly the world the embedded
// `run --seed N` checks.
func ReferenceSeed(seed uint64) int64 { return int64(seed) }

// ResolveBase turns a --target URL into the protocol's base URL: a URL with
// no path gets the documented base path appended.
func ResolveBase(target, basePath string) (string, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return "", fmt.Errorf("target %q is not an http(s) URL (nor a ws(s) one, for a WebSocket protocol)", target)
	}
	if u.User != nil {
		// Credentials in a URL would reach every report and case file.
		return "", fmt.Errorf("target URL carries credentials (user:password@): the kit does not send them and would print them")
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = basePath
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String(), nil
}

func (pr *protocolRun) newDriver() error {
	doc, err := pr.p.openAPI()
	if err != nil {
		return fmt.Errorf("no OpenAPI document: %w", err)
	}
	u, _ := url.Parse(pr.base)
	v, err := loadValidator(doc, u.Path, oasRule(pr.cat))
	if err != nil {
		return err
	}
	pr.breaker = &driver.Breaker{}
	pr.drv = driver.NewHTTP(driver.HTTPOptions{BaseURL: pr.base, Limiter: pr.limiter, Budget: pr.budget,
		Secrets: pr.secrets, Validator: v, Timeout: pr.cfg.Timeout, Breaker: pr.breaker, Wait: pr.wait})
	return nil
}

// wait waits out a Retry-After (or any documented wait) of d. Against a
// live target that is real time; against the embedded reference, whose
// clock only moves when the run moves it, the run moves the clock by d
// instead, so the reference sees the wait and the run spends none.
func (pr *protocolRun) wait(ctx context.Context, d time.Duration) error {
	if pr.ref == nil || pr.clock == nil {
		return driver.Sleep(ctx, d)
	}
	if d > 0 {
		pr.clock.Advance(d)
	}
	return ctx.Err()
}

// oasRule is the catalogue rule an OpenAPI mismatch breaks by default:
// the REFERENCE one where a catalogue has several (FORGE keeps a MUST rule
// that the document is served, FORGE-DOC-OPENAPI, beside the REFERENCE
// rule of its shapes, FORGE-REF-OPENAPI), since the shapes are the kit's
// choice and a deployment answering in others must only warn.
func oasRule(cat *spec.Catalogue) string {
	first := ""
	for _, r := range cat.Rules {
		if strings.HasSuffix(r.ID, "-OPENAPI") {
			if r.Level == spec.Reference {
				return r.ID
			}
			if first == "" {
				first = r.ID
			}
		}
	}
	if first != "" {
		return first
	}
	return strings.ToUpper(cat.Protocol) + "-OPENAPI"
}

// env builds a fresh Env recording into rec.
func (pr *protocolRun) env(rec *driver.Recorder) *Env {
	return &Env{HTTP: pr.drv.WithRecorder(rec), Catalogue: pr.cat, Seed: pr.cfg.Seed,
		Shared: pr.shared, Reference: pr.ref, Clock: pr.clock, MaxWrites: pr.cfg.MaxWrites,
		ExhaustQuotas: pr.cfg.ExhaustQuotas, Long: pr.cfg.Long, Settings: pr.cfg.Settings, links: &links{pr: pr, rec: rec}}
}

func (pr *protocolRun) info() verdict.ProtocolInfo {
	info := verdict.ProtocolInfo{Name: pr.p.Name, Title: pr.p.Title, Target: pr.base, Seed: pr.cat.Seed}
	source, _ := pr.p.SourceContract(pr.cat) // nil: no words around a short quote
	arounds := aroundsOf(pr.cat, source)
	for _, r := range pr.cat.Rules {
		if r.ForAgents() {
			continue // audited by serve --audit, never checked against a platform
		}
		// A credential given on the command line may be a documented
		// development value the catalogue quotes (Pyyol's admin token):
		// the report shows it in no spelling, the rule texts included.
		redact := pr.secrets.Redact
		ri := verdict.RuleInfo{ID: r.ID, Level: r.Level, Title: redact(r.Title),
			Quote: redact(r.Quote), Path: r.Path, Choice: redact(r.Choice)}
		if verdict.ShortQuote(r.Quote) && source != nil {
			ri.Around = redact(arounds.of(r))
		}
		info.Rules = append(info.Rules, ri)
	}
	return info
}

// StoppingAt returns cfg set to stop at the first failure naming rule
// (FailFast with StopsRun): a tamper table needs one failure naming the
// rule its broken target breaks, and the checks after it cost time only.
func (cfg Config) StoppingAt(rule string) Config {
	cfg.FailFast = true
	cfg.StopsRun = func(r verdict.Result) bool { return r.FailedRule == rule }
	return cfg
}
