package protocoltest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/spec"
)

// CheckFolder runs the checks of one data folder over the protocols that
// share it (usually one): the folder's catalogue is well formed and names
// the folder, every quote is the source contract's words at its path, every
// rule is covered by a scenario some protocol of the folder runs, every rule
// is cited beside the reference code and every citation is catalogued, the
// vectors are reproduced, and the JSON Schemas compile.
func CheckFolder(group []*suite.Protocol) error {
	if len(group) == 0 {
		return errors.New("no protocols to check")
	}
	first := group[0]
	folder := first.DataFolder()
	if err := checkShared(group); err != nil {
		return prefixed("folder "+folder, err)
	}
	cat, err := first.FolderCatalogue()
	if err != nil {
		return fmt.Errorf("folder %s: catalogue: %w", folder, err)
	}
	errs := []error{
		checkCatalogue(folder, first.RulePrefix, cat),
		checkQuotes(first, cat),
		checkFeatures(group, cat),
		checkCitations(first, cat),
		checkVectors(group),
		checkSchemas(first),
	}
	return prefixed("folder "+folder, errors.Join(errs...))
}

// checkShared requires the protocols of a folder to agree on what the
// folder checks read: the folder, the Go package whose code cites the rules,
// the rule prefix and the catalogue.
func checkShared(group []*suite.Protocol) error {
	var errs []error
	first := group[0]
	want := ruleIDs(first)
	for _, p := range group[1:] {
		if p.DataFolder() != first.DataFolder() {
			errs = append(errs, fmt.Errorf("%s uses folder %s, not %s", p.Name, p.DataFolder(), first.DataFolder()))
		}
		if p.Package != first.Package || p.RulePrefix != first.RulePrefix {
			errs = append(errs, fmt.Errorf("%s and %s share a folder but not their Package and RulePrefix", first.Name, p.Name))
		}
		if !slices.Equal(ruleIDs(p), want) {
			errs = append(errs, fmt.Errorf("%s and %s share a folder but see different catalogues", first.Name, p.Name))
		}
	}
	return errors.Join(errs...)
}

// ruleIDs lists the rules of a protocol's folder catalogue.
func ruleIDs(p *suite.Protocol) []string {
	cat, err := p.FolderCatalogue()
	if err != nil {
		return nil
	}
	ids := make([]string, len(cat.Rules))
	for i, r := range cat.Rules {
		ids[i] = r.ID
	}
	return ids
}

// byFolder groups protocols by data folder, in the order of their first
// appearance.
func byFolder(ps []*suite.Protocol) [][]*suite.Protocol {
	var out [][]*suite.Protocol
	at := map[string]int{}
	for _, p := range ps {
		i, ok := at[p.DataFolder()]
		if !ok {
			i = len(out)
			at[p.DataFolder()] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], p)
	}
	return out
}

// checkCatalogue requires the catalogue to name its folder and every rule ID
// to carry the folder's prefix.
func checkCatalogue(folder, prefix string, cat *spec.Catalogue) error {
	var errs []error
	if cat.Protocol != folder {
		errs = append(errs, fmt.Errorf("catalogue names protocol %q, want %q", cat.Protocol, folder))
	}
	if len(cat.Rules) == 0 {
		errs = append(errs, errors.New("catalogue has no rules"))
	}
	for _, r := range cat.Rules {
		if !strings.HasPrefix(r.ID, prefix+"-") {
			errs = append(errs, fmt.Errorf("rule %s lacks the prefix %s-", r.ID, prefix))
		}
	}
	return errors.Join(errs...)
}

// checkQuotes requires every quote to be the source contract's words at its
// path (a JSON path or a markdown heading, spec.CheckQuotes).
func checkQuotes(p *suite.Protocol, cat *spec.Catalogue) error {
	src, err := p.SourceContract(cat)
	if err != nil {
		return fmt.Errorf("source contract %q: %w", cat.Source, err)
	}
	return cat.CheckQuotes(src)
}
