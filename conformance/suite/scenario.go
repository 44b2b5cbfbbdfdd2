package suite

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

// Scenario is the per-scenario base that every protocol's world embeds, so
// that no world keeps its own copy of the four jobs every scenario shares:
// the last response a Then step judges, where the When step began in the
// transcript, the target's state before the When step (S, whatever the
// protocol reads as its state: a session, a chain length, a state view), and
// the cleanups that run when the scenario ends. Bind it to the scenario in
// the protocol's Steps; a world a property machine builds works unbound, but
// its cleanups then never run.
type Scenario[S any] struct {
	// Last is the latest answer of the target that a Then step judges; nil
	// until the scenario sent a request.
	Last *driver.Response
	// Mark is the transcript length when the When step began (MarkWhen).
	Mark int
	// Before is the target's state as the scenario last read it before the
	// When step.
	Before S
	// Tags are the scenario's tags without "@", collected when the
	// scenario starts (Bind); empty for an unbound Scenario.
	Tags []string

	env      *Env
	mu       sync.Mutex
	cleanups []func()
	failed   bool
}

// NoState is the Before type of a protocol whose worlds keep no state from
// before the When step.
type NoState struct{}

// Bind ties s to one scenario: env is the scenario's Env (its transcript is
// what MarkWhen measures), the scenario's tags are collected into Tags
// before any hook registered after Bind runs, and the registered cleanups
// run when the scenario ends, after Failed learned how it ended.
func (s *Scenario[S]) Bind(sc *ScenarioContext, env *Env) {
	s.env = env
	sc.Before(func(ctx context.Context, sn *godog.Scenario) (context.Context, error) {
		for _, t := range sn.Tags {
			s.Tags = append(s.Tags, strings.TrimPrefix(t.Name, "@"))
		}
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		s.end(err != nil)
		return ctx, err
	})
}

// RuleTag names the rule a generic step (a status, a refusal, a field
// shared by several rules) checks: the scenario's first tag that names a
// rule of cat, or "untagged scenario".
func (s *Scenario[S]) RuleTag(cat *spec.Catalogue) string {
	for _, t := range s.Tags {
		if _, ok := cat.Rule(t); ok {
			return t
		}
	}
	return "untagged scenario"
}

// end records whether the scenario failed and runs the cleanups once, last
// registered first.
func (s *Scenario[S]) end(failed bool) {
	s.mu.Lock()
	s.failed = failed
	fs := s.cleanups
	s.cleanups = nil
	s.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// Cleanup registers f to run when the scenario ends (last registered first):
// undoing a change to shared state, such as a test clock setting or a
// cached run the scenario may have spoiled.
func (s *Scenario[S]) Cleanup(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, f)
}

// Failed reports whether the scenario ended in anything but a pass; a
// cleanup reads it to drop shared state a failed scenario may have left
// half-way.
func (s *Scenario[S]) Failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// MarkWhen remembers where the When step starts in the transcript, so a
// Then step can look at the When step's exchanges alone (SinceMark).
func (s *Scenario[S]) MarkWhen() {
	if rec := s.recorder(); rec != nil {
		s.Mark = rec.Len()
	}
}

// SinceMark returns the exchanges recorded since MarkWhen, redacted.
func (s *Scenario[S]) SinceMark() []verdict.Exchange {
	rec := s.recorder()
	if rec == nil {
		return nil
	}
	all := rec.Exchanges()
	if s.Mark > len(all) {
		return nil
	}
	return all[s.Mark:]
}

// recorder is the scenario's transcript, nil for an unbound Scenario.
func (s *Scenario[S]) recorder() *driver.Recorder {
	if s.env == nil || s.env.HTTP == nil {
		return nil
	}
	return s.env.HTTP.Recorder()
}

// Status is the last answer's status code, 0 before any answer.
func (s *Scenario[S]) Status() int {
	if s.Last == nil {
		return 0
	}
	return s.Last.Status
}

// Body is the last answer's body, nil before any answer.
func (s *Scenario[S]) Body() []byte {
	if s.Last == nil {
		return nil
	}
	return s.Last.Body
}

// Header is the last answer's header, nil before any answer.
func (s *Scenario[S]) Header() http.Header {
	if s.Last == nil {
		return nil
	}
	return s.Last.Header
}

// NeedLast is a harness error when a Then step runs before any answer: the
// feature, not the target, is at fault.
func (s *Scenario[S]) NeedLast() error {
	if s.Last == nil {
		return verdict.Errorf("the scenario made no request to judge")
	}
	return nil
}
