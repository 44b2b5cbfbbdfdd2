// Package protocoltest is the contract every protocol of the kit passes, in
// the style of testing/fstest.TestFS: Check(p) runs every check on one
// protocol description and returns all the problems it finds at once, and
// TestProtocol wraps it for a go test. Adding a protocol means adding one
// line to conformance/protocols; this test then holds it to the README's
// "Adding a protocol" checklist.
package protocoltest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/spec"
)

// Check runs every contract check on p: its description, catalogue, quotes,
// features, citations, vectors, OpenAPI document, and an embedded and a
// live run against its own reference. It returns errors.Join of every
// problem, nil when there is none.
func Check(p *suite.Protocol) error {
	if err := checkDescription(p); err != nil {
		return err
	}
	cat, err := p.LoadCatalogue()
	if err != nil {
		return fmt.Errorf("%s: catalogue: %w", p.Name, err)
	}
	errs := []error{
		checkCatalogue(p, cat),
		checkQuotes(p, cat),
		checkFeatures(p, cat),
		checkCitations(p, cat),
		checkVectors(p),
		checkOpenAPI(p),
		checkSchemas(p),
	}
	if errors.Join(errs...) == nil {
		// The runs are the slow part; a protocol whose data is broken would
		// only fail them for the same reason.
		errs = append(errs, checkRun(p, false), checkRun(p, true))
	}
	return prefixed(p.Name, errors.Join(errs...))
}

// TestProtocol runs Check as a test, one error per problem.
func TestProtocol(t *testing.T, p *suite.Protocol) {
	t.Helper()
	if err := Check(p); err != nil {
		for _, e := range unjoin(err) {
			t.Error(e)
		}
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
	return errors.Join(errs...)
}

// checkCatalogue requires the catalogue to name its folder and every rule ID
// to carry the protocol's prefix.
func checkCatalogue(p *suite.Protocol, cat *spec.Catalogue) error {
	var errs []error
	if cat.Protocol != p.DataFolder() {
		errs = append(errs, fmt.Errorf("catalogue names protocol %q, want %q", cat.Protocol, p.DataFolder()))
	}
	if len(cat.Rules) == 0 {
		errs = append(errs, errors.New("catalogue has no rules"))
	}
	for _, r := range cat.Rules {
		if !strings.HasPrefix(r.ID, p.RulePrefix+"-") {
			errs = append(errs, fmt.Errorf("rule %s lacks the prefix %s-", r.ID, p.RulePrefix))
		}
	}
	return errors.Join(errs...)
}

// checkQuotes requires every quote to be the source contract's words at its
// path.
func checkQuotes(p *suite.Protocol, cat *spec.Catalogue) error {
	src, err := p.SourceContract(cat)
	if err != nil {
		return fmt.Errorf("source contract %q: %w", cat.Source, err)
	}
	return cat.CheckQuotes(src)
}

// prefixed puts the protocol's name before each problem.
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
