package agentaudit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/features"
)

// scripts holds every scripted behaviour, per protocol, under the words a
// scenario's "Given an agent that ..." names it by.
var scripts = map[string]map[string]Script{}

// register adds a scripted behaviour of protocol under its words.
func register(protocol, words string, s Script) {
	if scripts[protocol] == nil {
		scripts[protocol] = map[string]Script{}
	}
	scripts[protocol][words] = s
}

// Lookup returns protocol's scripted behaviour named by words.
func Lookup(protocol, words string) (Script, bool) {
	s, ok := scripts[protocol][words]
	return s, ok
}

// Result is the outcome of one agent scenario.
type Result struct {
	Folder, Scenario string
	// Names lists the rules the scenario expects the audit to name.
	Names []string
	Err   error // nil: passed
	Took  time.Duration
}

// Run executes the agents.feature of each folder and returns one result
// per scenario; o applies to every server (its Faults are the scripts',
// its Clocks ScenarioClocks).
func Run(ctx context.Context, folders []Folder, o Options) []Result {
	var out []Result
	for _, f := range folders {
		out = append(out, runFolder(ctx, f, o)...)
	}
	return out
}

// runFolder runs one folder's agents.feature through godog.
func runFolder(ctx context.Context, f Folder, o Options) []Result {
	paths := features.AgentPathsFS(features.FS(), f.Name)
	if len(paths) == 0 {
		return []Result{{Folder: f.Name, Err: fmt.Errorf("features/%s/%s is missing", f.Name, features.AgentFile)}}
	}
	var mu sync.Mutex
	var out []Result
	suiteRun := godog.TestSuite{
		Name: "agents " + f.Name,
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			st := &scenarioState{folder: f, opts: o, started: time.Now()}
			st.register(suite.NewScenarioContext(sc))
			sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
				st.close()
				mu.Lock()
				out = append(out, Result{Folder: f.Name, Scenario: s.Name, Names: namedRules(s), Err: err, Took: time.Since(st.started)})
				mu.Unlock()
				return ctx, nil
			})
		},
		Options: &godog.Options{Format: "progress", Output: io.Discard, FS: features.FS(), Paths: paths,
			Strict: true, Concurrency: concurrency, DefaultContext: ctx, NoColors: true, Tags: "@agent"},
	}
	suiteRun.Run()
	return out
}

// concurrency is how many scenarios of a folder run at once: each plays
// against its own server, and most of a socket scenario's time is spent
// waiting on the gateway's clocks (a turn timeout, the heartbeat gap, the
// reconnect grace).
const concurrency = 4

// scenarioState is one scenario's agent and server.
type scenarioState struct {
	folder  Folder
	opts    Options
	script  Script
	srv     *Server
	started time.Time
}

func (st *scenarioState) close() {
	if st.srv != nil {
		st.srv.Close()
	}
}

func (st *scenarioState) register(sc *suite.ScenarioContext) {
	sc.Step(suite.Pattern(`^an agent that (.+)$`), st.anAgentThat)
	sc.Step(suite.Pattern(`^it plays against the reference server with the audit on$`), st.play)
	sc.Step(namesStep, st.auditNames)
	sc.Step(suite.Pattern(`^the audit saw the agent's requests$`), st.sawRequests)
	sc.Step(suite.Pattern(`^the audit names no rule$`), st.namesNoRule)
	sc.Step(suite.Pattern(`^the audit cannot name ([A-Z0-9-]+) from the requests$`), st.cannotName)
}

func (st *scenarioState) anAgentThat(words string) error {
	s, ok := Lookup(st.folder.Protocol, words)
	if !ok {
		return fmt.Errorf("no scripted %s agent that %q (conformance/agentaudit)", st.folder.Protocol, words)
	}
	st.script = s
	return nil
}

func (st *scenarioState) play(ctx context.Context) error {
	o := st.opts
	o.Faults = pick(FaultTables[st.folder.Protocol](), st.script.Faults)
	o.Clocks = ScenarioClocks() // the scripts time their behaviour against these
	srv, err := Start(st.folder.Protocol, o)
	if err != nil {
		return err
	}
	st.srv = srv
	return st.script.Play(ctx, srv.Base)
}

// auditNames requires a finding of rule on a request matching want, where
// "{x}" in want stands for one path segment (an id).
func (st *scenarioState) auditNames(rule, want string) error {
	re := requestPattern(want)
	wait := max(st.script.Settle, findingGrace)
	if st.opts.MaxWait > 0 {
		wait = min(wait, st.opts.MaxWait)
	}
	deadline := time.Now().Add(wait)
	for {
		var seen []string
		for _, f := range st.srv.Findings() {
			if f.Rule == rule && re.MatchString(f.Request) {
				return nil
			}
			seen = append(seen, f.Rule+" "+f.Request)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the audit does not name %s on %q; it named %v", rule, want, seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// findingGrace is how long a scenario reads the audit for a finding: an
// answer may reach the agent a moment before the audit records it, and a
// socket's frames are audited as the gateway reads them.
const findingGrace = 200 * time.Millisecond

// requestPattern turns "POST /sessions/{id}/actions" into an exact match
// with one path segment for each {...}.
func requestPattern(want string) *regexp.Regexp {
	quoted := regexp.QuoteMeta(want)
	quoted = regexp.MustCompile(`\\\{[a-z_]+\\\}`).ReplaceAllString(quoted, `[^/ ]+`)
	return regexp.MustCompile("^" + quoted + "$")
}

func (st *scenarioState) sawRequests() error {
	if st.srv.Requests() == 0 {
		return errors.New("the audit saw no request of the agent")
	}
	return nil
}

func (st *scenarioState) namesNoRule() error {
	time.Sleep(findingGrace) // a finding recorded a moment after the last answer still counts
	if fs := st.srv.Findings(); len(fs) > 0 {
		var names []string
		for _, f := range fs {
			names = append(names, f.Rule+" "+f.Request+": "+f.Detail)
		}
		return fmt.Errorf("the audit named %s", strings.Join(names, "; "))
	}
	return nil
}

// cannotName requires that no finding names rule: the audit sees no
// request that breaks it, and must not pretend to.
func (st *scenarioState) cannotName(rule string) error {
	for _, f := range st.srv.Findings() {
		if f.Rule == rule {
			return fmt.Errorf("the audit named %s on %s, which no request can show", rule, f.Request)
		}
	}
	return nil
}

// namedRules lists the rules a scenario's steps expect the audit to name.
func namedRules(s *godog.Scenario) []string {
	var out []string
	for _, step := range s.Steps {
		if m := namesStep.FindStringSubmatch(step.Text); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// namesStep is the step expecting a finding.
var namesStep = regexp.MustCompile(`^the audit names ([A-Z0-9-]+) with the offending request "([^"]+)"$`)
