package protocoltest

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// runSeed is the seed of the contract test's runs, fixed so a failure
// reproduces with `conformance run --seed 1`.
const runSeed = 1

// runChecks is the number of rapid checks per property in those runs: the
// contract test proves the wiring, the protocol's own tests the depth.
const runChecks = 2

// checkOpenAPI requires the OpenAPI document to load and validate.
func checkOpenAPI(p *suite.Protocol) error {
	doc, err := p.OpenAPIDocument()
	if err != nil {
		return fmt.Errorf("OpenAPI document: %w", err)
	}
	_, err = oas.Parse(doc)
	return err
}

// checkRuns runs the embedded and the live run side by side: each has its
// own reference, and much of their time is waiting (turn timeouts,
// Retry-After), so the pair takes as long as the longer one. Both run with
// the protocol's ServeFlags, as against `conformance serve`: the
// reference's documented development credentials, which the embedded
// reference accepts as its own; the flags are reset once both are done.
func checkRuns(p *suite.Protocol) []error {
	settings, err := suite.ParseSettings(p.Flags, p.ServeFlags)
	if err != nil {
		return []error{fmt.Errorf("live run: ServeFlags: %w", err)}
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, live := range []bool{false, true} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = checkRun(p, live, settings)
		}()
	}
	wg.Wait()
	return errs
}

// checkRun runs the whole suite against the protocol's own reference,
// embedded (with its controls) or live (served over loopback, as a
// deployment would be), and requires it to pass.
func checkRun(p *suite.Protocol, live bool, settings suite.Settings) error {
	dir, err := os.MkdirTemp("", "protocoltest-cases-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := suite.Config{Protocols: []*suite.Protocol{p}, Seed: runSeed, Checks: runChecks, CaseDir: dir, Settings: settings}
	mode := "embedded run"
	if live {
		// The test hands the reference the wall clock itself (Now set), as
		// a run hands its embedded reference its own clock; `serve` leaves
		// Now unset. A reference may keep its waits test-sized then (the
		// Pyyol gateway's turn timeout, PYYOL-REF-TURN-TIMEOUT); the
		// checks stay the live ones.
		srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{Seed: suite.ReferenceSeed(runSeed), Now: time.Now}))
		defer srv.Close()
		cfg.Target, mode = srv.URL+p.BasePath, "live run against its reference over loopback"
	}
	rep, err := suite.Run(context.Background(), cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", mode, err)
	}
	if !live {
		if err := checkEmbeddedIsClean(p, mode, rep); err != nil {
			return err
		}
	}
	if rep.ExitCode() == 0 {
		return nil
	}
	errs := []error{fmt.Errorf("%s exits %d (seed %d)", mode, rep.ExitCode(), runSeed)}
	for _, e := range rep.Errors {
		errs = append(errs, fmt.Errorf("%s: %s", mode, e))
	}
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			errs = append(errs, fmt.Errorf("%s: %s %q: %s", mode, r.Status, r.Name, r.Message))
		}
	}
	return errors.Join(errs...)
}

// sortedKeys returns a map's keys in order, so tampering is deterministic.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkEmbeddedIsClean holds the reference to its own catalogue: against
// itself, with every control at hand, no check may warn (a warning there is
// the reference breaking its own REFERENCE choice or a SHOULD rule) and
// every catalogued platform rule must reach a verdict, so a rule whose
// checks all skip is not quietly counted as covered.
func checkEmbeddedIsClean(p *suite.Protocol, mode string, rep *verdict.Report) error {
	var errs []error
	for _, r := range rep.Results {
		if r.Status == verdict.Warn {
			errs = append(errs, fmt.Errorf("%s: warn %q (%s): %s", mode, r.Name, r.FailedRule, r.Message))
		}
	}
	cat, err := p.LoadCatalogue()
	if err != nil {
		return err
	}
	decided := rep.Decided()
	for _, rule := range cat.Rules {
		if rule.ForAgents() {
			continue // an agent's duty: serve --audit judges it, never a run
		}
		if _, ok := decided[rule.ID]; !ok {
			errs = append(errs, fmt.Errorf("%s: no check reached a verdict on %s", mode, rule.ID))
		}
	}
	return errors.Join(errs...)
}
