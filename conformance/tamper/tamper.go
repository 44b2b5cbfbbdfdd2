// Package tamper is the kit's one broken-target harness: it wraps a
// reference server in middleware that breaks one rule, serves it on
// loopback, runs the live runner restricted to the rules under test and
// checks that the run fails naming the broken rule. Each case runs only its
// own rules' checks, in-process, so a protocol can afford one case per MUST
// rule.
package tamper

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// Case is one deliberately broken target and the rule it must fail.
type Case struct {
	// Name says what is broken.
	Name string
	// Rule is the rule the run must fail.
	Rule string
	// Target is the broken server, served over loopback as a live
	// deployment would be. Leave it nil and set Reference instead for
	// checks that need the embedded reference's controls (@control).
	Target http.Handler
	// Reference replaces the protocol's reference for an embedded run.
	Reference func(cfg suite.ReferenceConfig) http.Handler
	// Rules selects the checks (--rule); empty means Rule alone.
	Rules []string
	// Tags further selects scenarios, e.g. "@property" for the property
	// alone.
	Tags string
	// Checks is the number of property checks; zero runs the features only.
	Checks int
	// Seed is the run's seed; zero means 11.
	Seed uint64
	// ExhaustQuotas is --exhaust-quotas: a live case may spend throwaway
	// identities' whole daily allowance to reach a quota's limit.
	ExhaustQuotas bool
	// Long is --long: a live case waits out documented windows (a grace,
	// a TTL) in real time, for a slip only a @long scenario can see.
	Long bool
	// Settings are the run's protocol flag values (suite.Config.Settings),
	// such as a push endpoint's secret.
	Settings suite.Settings
}

// Outcome is what a case's run produced.
type Outcome struct {
	Report *verdict.Report
}

// Failed lists the rules the run failed, in result order.
func (o Outcome) Failed() []string {
	var out []string
	for _, r := range o.Report.Results {
		if r.Status == verdict.Fail {
			out = append(out, r.FailedRule)
		}
	}
	return out
}

// Summary is one line per result that did not pass, for failure messages.
func (o Outcome) Summary() string {
	var b strings.Builder
	for _, r := range o.Report.Results {
		if r.Status != verdict.Pass {
			fmt.Fprintf(&b, "  %s %s [%s]: %s\n", r.Status, r.Name, r.FailedRule, firstLine(r.Message))
		}
	}
	for _, e := range o.Report.Errors {
		fmt.Fprintf(&b, "  run error: %s\n", e)
	}
	return b.String()
}

// Run runs c against p and returns the outcome; only an unusable
// configuration is an error.
func Run(p *suite.Protocol, c Case) (Outcome, error) {
	return run(p, c, false)
}

// run is Run; stop ends the run at the first failure naming c.Rule
// (suite.Config.StoppingAt), all Check needs.
func run(p *suite.Protocol, c Case, stop bool) (Outcome, error) {
	dir, err := os.MkdirTemp("", "tamper-cases-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	rules := c.Rules
	if len(rules) == 0 {
		rules = []string{c.Rule}
	}
	seed := c.Seed
	if seed == 0 {
		seed = 11
	}
	cfg := suite.Config{Protocols: []*suite.Protocol{p}, Rules: rules, Tags: c.Tags, Seed: seed,
		Checks: c.Checks, NoProperties: c.Checks == 0, CaseDir: dir, ExhaustQuotas: c.ExhaustQuotas, Long: c.Long, Settings: c.Settings}
	if stop {
		cfg = cfg.StoppingAt(c.Rule)
	}
	switch {
	case c.Target != nil:
		srv := httptest.NewServer(c.Target)
		defer srv.Close()
		cfg.Target = srv.URL + p.BasePath
	case c.Reference != nil:
		q := *p
		q.Reference = c.Reference
		cfg.Protocols = []*suite.Protocol{&q}
	default:
		return Outcome{}, fmt.Errorf("tamper case %q has neither a Target nor a Reference", c.Name)
	}
	rep, err := suite.Run(context.Background(), cfg)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Report: rep}, nil
}

// Check runs c and requires the run to exit 1 with c.Rule failed.
func Check(p *suite.Protocol, c Case) error {
	out, err := run(p, c, true)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	if out.Report.ExitCode() != 1 || !out.Report.Failed(c.Rule) {
		return fmt.Errorf("%s: exit %d, failed %v; want exit 1 with %s failed\n%s",
			c.Name, out.Report.ExitCode(), out.Failed(), c.Rule, out.Summary())
	}
	return nil
}

// Test runs every case as a subtest: each serves its own target and
// selects only its own rules.
func Test(t *testing.T, p *suite.Protocol, cases []Case) {
	t.Helper()
	if len(cases) == 0 {
		t.Fatal("no tamper cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if err := Check(p, c); err != nil {
				t.Error(err)
			}
		})
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
