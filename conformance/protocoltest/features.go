package protocoltest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// checkFeatures requires every platform rule of the folder to head a
// scenario that some protocol of the folder runs, every rule for agents a
// scenario of its agents.feature, every rule-shaped tag to name a
// catalogued rule, and every feature file of the folder to be run by one of
// its protocols.
func checkFeatures(group []*suite.Protocol, cat *spec.Catalogue) error {
	folder := group[0].DataFolder()
	var scenarios []features.Scenario
	run := map[string]bool{}
	for _, p := range group {
		own, err := features.ParseFS(p.FeatureFS(), folder)
		if err != nil {
			return fmt.Errorf("features: %w", err)
		}
		scenarios = append(scenarios, own...)
		for _, f := range features.PathsFS(p.FeatureFS(), folder) {
			run[f] = true
		}
	}
	var errs []error
	for _, f := range features.PathsFS(group[0].FolderFeatureFS(), folder) {
		if !run[f] {
			errs = append(errs, fmt.Errorf("%s is run by no protocol of the folder (see FeatureFiles)", f))
		}
	}
	cov := features.Cover(cat, scenarios)
	for _, id := range cov.Uncovered {
		errs = append(errs, fmt.Errorf("rule %s has no scenario", id))
	}
	for _, u := range unique(cov.Unknown) {
		errs = append(errs, fmt.Errorf("scenario tag names no catalogued rule: %s", u))
	}
	errs = append(errs, checkAgentFeatures(group[0], cat))
	return errors.Join(errs...)
}

// checkAgentFeatures requires every rule for agents of the folder to head
// a scenario of its agents.feature (run by conformance/agentaudit against
// the audited reference, never by conformance run), each tagged @agent
// and naming only rules for agents.
func checkAgentFeatures(p *suite.Protocol, cat *spec.Catalogue) error {
	scenarios, err := features.ParseAgentsFS(p.FolderFeatureFS(), p.DataFolder())
	if err != nil {
		return fmt.Errorf("features: %w", err)
	}
	cov := features.CoverAgents(cat, scenarios)
	var errs []error
	for _, id := range cov.Uncovered {
		errs = append(errs, fmt.Errorf("rule for agents %s has no scenario in %s/%s", id, p.DataFolder(), features.AgentFile))
	}
	for _, m := range cov.Misplaced {
		errs = append(errs, fmt.Errorf("agent scenario %s", m))
	}
	return errors.Join(errs...)
}

// checkOwnFeatures requires the protocol to run scenarios, each carrying
// the protocol's own tag (tag expressions select protocols by it).
func checkOwnFeatures(p *suite.Protocol) error {
	scenarios, err := features.ParseFS(p.FeatureFS(), p.DataFolder())
	if err != nil {
		return fmt.Errorf("features: %w", err)
	}
	if len(scenarios) == 0 {
		return fmt.Errorf("no scenarios in features/%s", p.DataFolder())
	}
	var errs []error
	for _, s := range scenarios {
		if !s.HasTag(p.Name) {
			errs = append(errs, fmt.Errorf("%s:%d %q is not tagged @%s", s.File, s.Line, s.Name, p.Name))
		}
	}
	return errors.Join(errs...)
}

// unique drops repeats from a sorted list (a file run by two protocols of a
// folder reports its unknown tags once).
func unique(sorted []string) []string {
	return slices.Compact(slices.Clone(sorted))
}

// checkCitations requires every rule to be cited beside the reference code
// that implements it, and every ID cited in the reference or runner code to
// be catalogued (a stale citation sends a reader to a rule that is gone).
func checkCitations(p *suite.Protocol, cat *spec.Catalogue) error {
	cite := regexp.MustCompile(`\b` + regexp.QuoteMeta(p.RulePrefix) + `(?:-[A-Z0-9]+)+\b`)
	refFS, runFS, err := codeFS(p)
	if err != nil {
		return err
	}
	reference, err := citations(refFS, cite)
	if err != nil {
		return fmt.Errorf("reading the reference code: %w", err)
	}
	runner := map[string]string{}
	if runFS != nil {
		if runner, err = citations(runFS, cite); err != nil {
			return fmt.Errorf("reading the runner code: %w", err)
		}
	}
	var errs []error
	for _, cited := range []map[string]string{reference, runner} {
		for id, where := range cited {
			if _, ok := cat.Rule(id); !ok {
				errs = append(errs, fmt.Errorf("%s cites %s, which the catalogue does not hold", where, id))
			}
		}
	}
	for _, r := range cat.Rules {
		if _, ok := reference[r.ID]; !ok {
			errs = append(errs, fmt.Errorf("rule %s is cited nowhere in the reference code (reference/%s)", r.ID, p.Package))
		}
	}
	return errors.Join(errs...)
}

// codeFS returns the reference and runner Go sources: the override, or
// reference/<Package> and conformance/<Package> of the module checkout.
func codeFS(p *suite.Protocol) (ref, run fs.FS, err error) {
	if p.ReferenceCode != nil {
		return p.ReferenceCode, nil, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return nil, nil, err
	}
	return os.DirFS(filepath.Join(root, "reference", p.Package)), os.DirFS(filepath.Join(root, "conformance", p.Package)), nil
}

// moduleRoot finds the folder holding go.mod, upwards from the working
// directory (go test runs in the package folder).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: the citation check needs the source checkout")
		}
		dir = parent
	}
}

// citations maps each rule ID cited in the non-test Go files of fsys to the
// first place citing it.
func citations(fsys fs.FS, cite *regexp.Regexp) (map[string]string, error) {
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := fs.ReadFile(fsys, path)
		for i, line := range strings.Split(string(src), "\n") {
			for _, id := range cite.FindAllString(line, -1) {
				if _, seen := out[id]; !seen {
					out[id] = fmt.Sprintf("%s:%d", path, i+1)
				}
			}
		}
		return err
	})
	return out, err
}
