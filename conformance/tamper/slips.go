package tamper

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
)

// Slip is one realistic implementer's bug (docs/detection.md): what it
// is, the rule a live run must fail for it, and the broken target, built
// afresh for its run. A package's table declares its own type on it
// (type slip tamper.Slip) so its rows stay short unkeyed literals.
type Slip struct {
	Name, Rule string
	Target     func() http.Handler
}

// Neighbour is a faithful reading next to a slip: a target taking a
// choice the contract leaves open, which must fail none of Rules where
// the slip fails its rule.
type Neighbour struct {
	Name   string
	Rules  []string
	Target func() http.Handler
}

// Slips runs each slip as a parallel subtest: planted alone, served over
// loopback and run live with only its rule selected, it must exit 1
// naming that rule (Check). settings are the runs' protocol flags.
func Slips[S ~struct {
	Name, Rule string
	Target     func() http.Handler
}](t *testing.T, p *suite.Protocol, slips []S, settings suite.Settings) {
	t.Helper()
	eachSlip(t, p, slips, settings, func(t *testing.T, _ Slip, err error) {
		if err != nil {
			t.Error(err)
		}
	})
}

// Unreached runs each slip no live run can catch yet (no scenario reaches
// its state; docs/detection.md says why) as a parallel subtest and fails
// the day one is caught: the known gap is then closed and the slip
// belongs in the slip table, where it stays caught.
func Unreached[S ~struct {
	Name, Rule string
	Target     func() http.Handler
}](t *testing.T, p *suite.Protocol, slips []S, settings suite.Settings) {
	t.Helper()
	eachSlip(t, p, slips, settings, func(t *testing.T, s Slip, err error) {
		if err == nil {
			t.Errorf("%q is caught now, naming %s: move it into the slip table", s.Name, s.Rule)
		}
	})
}

// eachSlip runs Check on every slip as a parallel subtest and hands its
// outcome (nil: caught naming its rule) to judge.
func eachSlip[S ~struct {
	Name, Rule string
	Target     func() http.Handler
}](t *testing.T, p *suite.Protocol, slips []S, settings suite.Settings, judge func(*testing.T, Slip, error)) {
	t.Helper()
	for _, row := range slips {
		s := Slip(row)
		parallel(t, s.Name, func(t *testing.T) {
			judge(t, s, Check(p, Case{Name: s.Name, Rule: s.Rule, Target: s.Target(), Settings: settings}))
		})
	}
}

// Neighbours runs each neighbour live on its rules alone as a parallel
// subtest, held to Faithful: nothing fails or errs and at least one check
// decides. settings are the runs' protocol flags.
func Neighbours[N ~struct {
	Name   string
	Rules  []string
	Target func() http.Handler
}](t *testing.T, p *suite.Protocol, ns []N, settings suite.Settings) {
	t.Helper()
	for _, row := range ns {
		n := Neighbour(row)
		parallel(t, n.Name, func(t *testing.T) {
			srv := httptest.NewServer(n.Target())
			defer srv.Close()
			Faithful(t, suite.Config{Protocols: []*suite.Protocol{p}, Rules: n.Rules, Target: srv.URL + p.BasePath,
				Seed: 11, NoProperties: true, Settings: settings}, 1)
		})
	}
}

// parallel runs f as a parallel subtest named name.
func parallel(t *testing.T, name string, f func(t *testing.T)) {
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		f(t)
	})
}
