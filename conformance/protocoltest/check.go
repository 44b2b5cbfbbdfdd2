// Package protocoltest is the contract every protocol of the kit passes, in
// the style of testing/fstest.TestFS: Check(p) runs every check on one
// protocol description and returns all the problems it finds at once, and
// TestProtocol wraps it for a go test. Adding a protocol means adding one
// line to conformance/protocols; TestProtocols then holds it to the
// README's "Adding a protocol" checklist.
//
// The checks come in two kinds. Folder checks look at the data a folder
// holds (catalogue, quotes, feature coverage, citations, vectors, JSON
// Schemas) and run once per data folder, over every protocol sharing it
// (folder.go). Protocol checks look at one protocol (its description, its
// own features and rules, its OpenAPI document, an embedded and a live run).
package protocoltest

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/spec"
)

// Check runs every contract check on p as the only protocol of its data
// folder. It returns errors.Join of every problem, nil when there is none.
func Check(p *suite.Protocol) error {
	return errors.Join(CheckFolder([]*suite.Protocol{p}), CheckProtocol(p))
}

// CheckAll runs the folder checks once per data folder of ps, over the
// protocols sharing it, and the protocol checks of each protocol.
func CheckAll(ps []*suite.Protocol) error {
	var errs []error
	for _, group := range byFolder(ps) {
		errs = append(errs, CheckFolder(group))
	}
	for _, p := range ps {
		errs = append(errs, CheckProtocol(p))
	}
	return errors.Join(errs...)
}

// TestProtocol runs Check as a test, one error per problem.
func TestProtocol(t *testing.T, p *suite.Protocol) {
	t.Helper()
	report(t, Check(p))
}

// TestProtocols runs CheckAll as a test: a subtest per data folder and one
// per protocol. The protocols' subtests run in parallel: their runs spend
// much of their time waiting (turn timeouts, Retry-After), each serves its
// own reference, and a protocol's flags are its own.
func TestProtocols(t *testing.T, ps []*suite.Protocol) {
	t.Helper()
	for _, group := range byFolder(ps) {
		t.Run("folder "+group[0].DataFolder(), func(t *testing.T) { report(t, CheckFolder(group)) })
	}
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			report(t, CheckProtocol(p))
		})
	}
}

// CheckProtocol runs the checks of one protocol: its description, its own
// catalogue and features, its OpenAPI document, and an embedded and a live
// run against its own reference.
func CheckProtocol(p *suite.Protocol) error {
	if err := checkDescription(p); err != nil {
		return err
	}
	cat, err := p.LoadCatalogue()
	if err != nil {
		return fmt.Errorf("%s: catalogue: %w", p.Name, err)
	}
	errs := []error{checkOwnRules(p, cat), checkNotLive(p, cat), checkOwnFeatures(p), checkOpenAPI(p)}
	if errors.Join(errs...) == nil {
		// The runs are the slow part; a protocol whose data is broken would
		// only fail them for the same reason.
		errs = append(errs, checkRuns(p)...)
	}
	return prefixed(p.Name, errors.Join(errs...))
}

// report turns every problem into a test error.
func report(t *testing.T, err error) {
	t.Helper()
	for _, e := range unjoin(err) {
		t.Error(e)
	}
}

// checkDescription requires the explicit fields every protocol states.
func checkDescription(p *suite.Protocol) error {
	var errs []error
	for field, v := range map[string]string{"Name": p.Name, "Title": p.Title, "BasePath": p.BasePath,
		"Folder": p.Folder, "Package": p.Package, "RulePrefix": p.RulePrefix} {
		if v == "" {
			errs = append(errs, fmt.Errorf("protocol %q: %s is empty", p.Name, field))
		}
	}
	if p.Reference == nil || p.Steps == nil {
		errs = append(errs, fmt.Errorf("protocol %q: Reference and Steps are required", p.Name))
	}
	if p.BasePath != "" && !strings.HasPrefix(p.BasePath, "/") {
		errs = append(errs, fmt.Errorf("protocol %q: BasePath %q does not start with /", p.Name, p.BasePath))
	}
	if err := applyServeFlags(p); err != nil {
		errs = append(errs, fmt.Errorf("protocol %q: ServeFlags: %w", p.Name, err))
	}
	if _, err := path.Match(p.FeatureFiles, ""); err != nil {
		errs = append(errs, fmt.Errorf("protocol %q: FeatureFiles %q: %w", p.Name, p.FeatureFiles, err))
	}
	return errors.Join(errs...)
}

// applyServeFlags parses the protocol's ServeFlags with its own Flags, as
// `conformance run` would: a live run against its reference needs them.
func applyServeFlags(p *suite.Protocol) error {
	if len(p.ServeFlags) > 0 && len(p.Flags) == 0 {
		return errors.New("the protocol has ServeFlags but binds no Flags")
	}
	_, err := suite.ParseSettings(p.Flags, p.ServeFlags)
	return err
}

// checkOwnRules requires the protocol to check some rules, each with the
// protocol's prefix (the folder checks look at the whole catalogue).
func checkOwnRules(p *suite.Protocol, cat *spec.Catalogue) error {
	var errs []error
	if len(cat.Rules) == 0 {
		errs = append(errs, errors.New("the protocol checks no rules (its catalogue, cut to its features, is empty)"))
	}
	for _, r := range cat.Rules {
		if !strings.HasPrefix(r.ID, p.RulePrefix+"-") {
			errs = append(errs, fmt.Errorf("rule %s lacks the prefix %s-", r.ID, p.RulePrefix))
		}
	}
	return errors.Join(errs...)
}

// checkNotLive requires every rule the quota plan names as not checkable
// live to be one of the protocol's platform MUST rules: the plan prints
// those reasons as the MUST rules a live run leaves unchecked, so an entry
// for a rule that changed level or side would be a false statement.
func checkNotLive(p *suite.Protocol, cat *spec.Catalogue) error {
	if p.Quota == nil {
		return nil
	}
	var errs []error
	for id := range p.Quota.NotLive {
		r, ok := cat.Rule(id)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("Quota.NotLive names %s, which the catalogue lacks", id))
		case r.Level != spec.Must || r.ForAgents():
			errs = append(errs, fmt.Errorf("Quota.NotLive names %s, a %s rule (side %q): only platform MUST rules are reported unchecked", id, r.Level, r.Side))
		}
	}
	return errors.Join(errs...)
}

// prefixed puts a name (a protocol's, a folder's) before each problem.
func prefixed(name string, err error) error {
	if err == nil {
		return nil
	}
	var out []error
	for _, e := range unjoin(err) {
		out = append(out, fmt.Errorf("%s: %w", name, e))
	}
	return errors.Join(out...)
}

// unjoin flattens errors.Join trees into their leaves.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}
