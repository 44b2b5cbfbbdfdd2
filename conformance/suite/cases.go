package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// Case is a failing check written to disk so `conformance replay` can run it
// again, against the same target or another one.
type Case struct {
	Version  int      `json:"version"`
	Protocol string   `json:"protocol"`
	Kind     string   `json:"kind"` // "scenario" or "property"
	Name     string   `json:"name"`
	Scenario string   `json:"scenario,omitempty"` // feature file:line
	Property string   `json:"property,omitempty"`
	Sequence []Action `json:"sequence,omitempty"`
	Seed     uint64   `json:"seed"`
	Target   string   `json:"target"`
	Rule     string   `json:"failed_rule,omitempty"`
	Message  string   `json:"message,omitempty"`
	// Transcript is the failing check's whole evidence, redacted as in
	// every report: the console and JUnit shorten a long transcript and
	// send the reader here for the rest.
	Transcript []verdict.Exchange `json:"transcript,omitempty"`
}

func propertyCase(p Property, seq []Action) Case {
	return Case{Kind: "property", Name: p.Name, Property: p.Name, Sequence: seq}
}

// caseWriter writes case files for fails and errors into one folder per run.
type caseWriter struct {
	mu  sync.Mutex
	dir string
	err error
}

// record writes c for a failed or errored result and notes the path in res.
func (w *caseWriter) record(pr *protocolRun, res *verdict.Result, c Case) {
	if res.Status != verdict.Fail && res.Status != verdict.Error {
		return
	}
	c.Version, c.Protocol, c.Seed, c.Target = 1, pr.p.Name, pr.cfg.Seed, pr.cfg.Target
	c.Rule, c.Message, c.Transcript = res.FailedRule, res.Message, res.Transcript
	path, err := w.write(c)
	if err != nil {
		w.mu.Lock()
		if w.err == nil {
			w.err = err
		}
		w.mu.Unlock()
		return
	}
	res.CaseFile = path
}

// failure returns the first case file that could not be written, as a
// run-level harness error: a failure nobody can replay must not pass
// silently.
func (w *caseWriter) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		return nil
	}
	return fmt.Errorf("case files could not be written (--cases %s): %v", w.dir, w.err)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (w *caseWriter) write(c Case) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dir == "" {
		d, err := os.MkdirTemp("", "conformance-cases-")
		if err != nil {
			return "", err
		}
		w.dir = d
	}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return "", err
	}
	name := unsafeName.ReplaceAllString(strings.ToLower(c.Protocol+"-"+c.Name), "-")
	if len(name) > 80 {
		name = name[:80]
	}
	raw, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(w.dir, name+"-*.json") // a fresh name: cases never overwrite each other
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Write(raw); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// LoadCase reads a case file.
func LoadCase(path string) (*Case, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading case file: %w", err)
	}
	return ParseCase(path, raw)
}

// ParseCase decodes the contents of the case file named name.
func ParseCase(name string, raw []byte) (*Case, error) {
	var c Case
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("case file %s is not a conformance case: %w", name, err)
	}
	if c.Version != 1 || c.Protocol == "" || (c.Kind != "scenario" && c.Kind != "property") {
		return nil, fmt.Errorf("case file %s: unsupported version %d or kind %q", name, c.Version, c.Kind)
	}
	return &c, nil
}

// Replay re-runs a case. cfg.Target overrides the case's own target; cfg
// must carry the case's protocol.
func Replay(ctx context.Context, cfg Config, c *Case) (*verdict.Report, error) {
	if cfg.Seed == 0 {
		cfg.Seed = c.Seed
	}
	if c.Kind == "scenario" {
		cfg.Scenarios = []string{c.Scenario}
		rep, err := Run(ctx, cfg)
		if err == nil && len(rep.Results) == 0 && len(rep.Errors) == 0 {
			err = fmt.Errorf("scenario %s (%q) is not in the features any more: were they changed since the case was written?", c.Scenario, c.Name)
		}
		return rep, err
	}
	return replayProperty(ctx, cfg, c)
}

// replayProperty applies the case's saved sequence once, without rapid.
func replayProperty(ctx context.Context, cfg Config, c *Case) (*verdict.Report, error) {
	if len(c.Sequence) == 0 {
		return nil, fmt.Errorf("case %q has no action sequence to replay: the property failed outside an action (%s); re-run it with --seed %d --rule %s",
			c.Name, c.Message, c.Seed, c.Rule)
	}
	prop, ok := findProperty(cfg.Protocols[0], c.Property)
	if !ok {
		return nil, fmt.Errorf("%w: %s has no property %q", errNoProperty, c.Protocol, c.Property)
	}
	r, rep := newRun(cfg)
	pr, err := r.prepare(ctx, cfg.Protocols[0])
	if err != nil {
		return nil, err
	}
	defer pr.close()
	rep.Protocols = append(rep.Protocols, pr.info())
	rec := &driver.Recorder{}
	res := verdict.Result{Protocol: c.Protocol, Feature: "properties", Name: prop.Name + " (replay)",
		Kind: "property", Rules: prop.Rules, Seed: c.Seed}
	for _, a := range c.Sequence {
		res.Sequence = append(res.Sequence, string(a))
	}
	env := pr.env(rec)
	defer env.close()
	pr.apply(&res, ReplaySequence(ctx, prop, env, c.Sequence))
	res.Transcript = rec.Exchanges()
	rep.Results = append(rep.Results, res)
	rep.Duration = time.Since(rep.Started)
	return rep, nil
}

func findProperty(p *Protocol, name string) (Property, bool) {
	for _, prop := range p.Properties {
		if prop.Name == name {
			return prop, true
		}
	}
	return Property{}, false
}
