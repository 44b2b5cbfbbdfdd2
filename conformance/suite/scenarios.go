package suite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/features"
)

// runFeatures runs the protocol's selected scenarios through godog, pass
// by pass (see plan), and returns one result per scenario.
func (pr *protocolRun) runFeatures(ctx context.Context) []verdict.Result {
	col := &collector{}
	for _, pass := range pr.passes {
		if len(pass) > 0 {
			pr.chosen, pr.seen = pass, map[string]int{}
			pr.runPass(ctx, col)
		}
	}
	return col.results
}

// runPass runs godog once over every feature file; the Before hook skips
// the pickles outside pr.chosen.
func (pr *protocolRun) runPass(ctx context.Context, col *collector) {
	paths := pr.passFiles(features.PathsFS(pr.p.featureFS(), pr.p.DataFolder()))
	suite := godog.TestSuite{
		Name:                pr.p.Name,
		ScenarioInitializer: func(sc *godog.ScenarioContext) { pr.initScenario(sc, col) },
		Options: &godog.Options{
			Format: "progress", Output: discard, FS: pr.p.featureFS(), Paths: paths,
			Strict: true, Concurrency: 1,
			DefaultContext: ctx, NoColors: true,
		},
	}
	suite.Run()
}

// passFiles keeps the feature files holding a scenario this pass runs:
// godog builds a scenario context (every step definition) for each pickle
// of the files it is given, so a --rule run gives it only the files it
// needs. A file is kept or dropped whole, so the pickle counting of the
// Before hook (nextKey) is unchanged.
func (pr *protocolRun) passFiles(paths []string) []string {
	files := map[string]bool{}
	for _, ref := range pr.chosen {
		if i := strings.LastIndex(ref, ":"); i > 0 {
			files[ref[:i]] = true
		}
	}
	var out []string
	for _, p := range paths {
		if files[p] {
			out = append(out, p)
		}
	}
	return out
}

// collector gathers scenario results from godog's hooks.
type collector struct {
	mu      sync.Mutex
	results []verdict.Result
}

func (c *collector) add(r verdict.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.results = append(c.results, r)
}

// initScenario builds the scenario's Env, lets the protocol register its
// steps, and hooks the verdict in after the last step.
func (pr *protocolRun) initScenario(gsc *godog.ScenarioContext, col *collector) {
	sc := NewScenarioContext(gsc)
	rec := &driver.Recorder{}
	env := pr.env(rec)
	var start time.Time
	ref := ""      // "file:line" of this scenario when selected
	var held error // a skip the Before hook decided; godog does not hand it to After
	sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
		// Selection happens here, with the kit's full tag expressions.
		if ref = pr.chosen[nextKey(pr.seen, s.Uri, s.Name)]; ref == "" {
			return ctx, godog.ErrSkip
		}
		start = time.Now()
		pr.cfg.Progress.Begin(pr.p.Name, pr.feature[s.Uri], s.Name)
		held = nil
		if pr.failFastStop() {
			held = fmt.Errorf("%w: %s", godog.ErrSkip, stoppedByFailFast)
			return ctx, held
		}
		if pr.ref == nil && !pr.cfg.Long && pickleTagged(s, tagLong) {
			held = fmt.Errorf("%w: %s", godog.ErrSkip, needsLong)
		}
		return ctx, held
	})
	sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
		env.close()
		if ref == "" {
			return ctx, nil
		}
		if held != nil {
			err = held
		}
		res := pr.scenarioResult(s, err, rec)
		res.Duration = time.Since(start)
		pr.cases.record(pr, &res, Case{Kind: "scenario", Name: s.Name, Scenario: ref})
		col.add(res)
		pr.noteResult(res)
		pr.cfg.Progress.Done(res)
		return ctx, nil
	})
	pr.p.Steps(sc, env)
}

// scenarioResult classifies a finished scenario. The step error decides
// first; soft findings (OpenAPI mismatches) then fail or warn a scenario
// whose steps passed.
func (pr *protocolRun) scenarioResult(s *godog.Scenario, err error, rec *driver.Recorder) verdict.Result {
	res := verdict.Result{Protocol: pr.p.Name, Feature: pr.feature[s.Uri], Name: s.Name, Kind: "scenario",
		Rules: pr.ruleTags(s), Transcript: rec.Exchanges()}
	res.Notes = verdict.InfoNotes(res.Transcript)
	err = pr.normalizeError(err, res.Rules)
	pr.apply(&res, err)
	res.Stopped = res.FailedRule != ""
	for _, f := range rec.Findings() {
		pr.applyFinding(&res, f)
	}
	return res
}

// normalizeError maps godog's own errors onto the verdict model and gives a
// rule-less failure the scenario's first rule.
func (pr *protocolRun) normalizeError(err error, rules []string) error {
	var f *verdict.Failure
	switch {
	case err == nil:
		return nil
	case errors.Is(err, godog.ErrSkip):
		// A skip the hooks wrapped ("skipped: why") says why once.
		return verdict.Skipf("%s", strings.TrimPrefix(err.Error(), godog.ErrSkip.Error()+": "))
	case errors.Is(err, godog.ErrUndefined), errors.Is(err, godog.ErrPending):
		return verdict.Errorf("the kit has no step definition for a step (%v): a defect of the kit, not the target", err)
	case errors.As(err, &f) && f.RuleID == "" && len(rules) > 0:
		f.RuleID = rules[0]
	}
	return err
}

// apply sets the result's status and failure details from err.
func (pr *protocolRun) apply(res *verdict.Result, err error) {
	res.Status = verdict.Classify(err, pr.cat.LevelOf)
	if err == nil {
		return
	}
	// Failures quote what the target sent, keys included: redact them as
	// the transcripts are.
	redact := pr.secrets.Redact
	res.Message = redact(err.Error())
	var f *verdict.Failure
	if errors.As(err, &f) {
		res.FailedRule = f.RuleID
		res.Expected = redact(fmt.Sprint(f.Expected))
		res.Observed = redact(fmt.Sprint(f.Observed))
	}
}

// applyFinding folds a soft finding into a result: it decides the verdict of
// a passing scenario, and of a warned one when it is a MUST failure (a
// REFERENCE finding never hides a MUST one, whichever came first); it is
// listed as a warning otherwise, and a warning it displaces stays listed.
func (pr *protocolRun) applyFinding(res *verdict.Result, finding error) {
	st := verdict.Classify(finding, pr.cat.LevelOf)
	decides := (res.Status == verdict.Pass && (st == verdict.Fail || st == verdict.Warn)) ||
		(res.Status == verdict.Warn && st == verdict.Fail)
	if decides {
		if res.Status == verdict.Warn {
			res.Warnings = append(res.Warnings, res.Message)
		}
		pr.apply(res, finding)
		if st == verdict.Fail {
			return
		}
	}
	res.Warnings = append(res.Warnings, pr.secrets.Redact(finding.Error()))
}

// ruleTags returns the scenario's tags that name catalogued rules, the
// Rule's own tag first (pickles list feature, rule then scenario tags).
func (pr *protocolRun) ruleTags(s *godog.Scenario) []string {
	var ids []string
	for _, t := range s.Tags {
		id := strings.TrimPrefix(t.Name, "@")
		if _, ok := pr.cat.Rule(id); ok && !containsString(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// pickleTagged reports whether the godog scenario s carries tag.
func pickleTagged(s *godog.Scenario, tag string) bool {
	for _, t := range s.Tags {
		if t.Name == tag {
			return true
		}
	}
	return false
}
