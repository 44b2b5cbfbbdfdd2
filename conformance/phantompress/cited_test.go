package phantompress

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentgames/conformance/spec"
)

// ruleRef matches a rule ID as code and comments cite it.
var ruleRef = regexp.MustCompile(`\bPP(?:-[A-Z0-9]+)+\b`)

// TestCitedRulesExist walks the reference and the runner and checks every
// rule ID they cite, in comments or in code, is in the catalogue: a stale
// citation sends a reader to a rule that does not exist.
func TestCitedRulesExist(t *testing.T) {
	cat, err := spec.Load("phantom-press")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, r := range cat.Rules {
		known[r.ID] = true
	}
	cited := 0
	for _, root := range []string{".", "../../reference/phantompress"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(src), "\n") {
				for _, id := range ruleRef.FindAllString(line, -1) {
					if strings.HasSuffix(path, "cited_test.go") {
						continue
					}
					cited++
					if !known[id] {
						t.Errorf("%s:%d cites %s, which the catalogue does not hold", path, i+1, id)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if cited < 100 {
		t.Errorf("only %d citations found: is the walk looking in the right place?", cited)
	}
}

// TestEveryRuleIsCitedByTheReference checks each catalogued rule is named
// beside some code of the reference (the implementation cites its rules).
func TestEveryRuleIsCitedByTheReference(t *testing.T) {
	cat, err := spec.Load("phantom-press")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	filepath.WalkDir("../../reference/phantompress", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			src, _ := os.ReadFile(path)
			for _, id := range ruleRef.FindAllString(string(src), -1) {
				seen[id] = true
			}
		}
		return nil
	})
	for _, r := range cat.Rules {
		if !seen[r.ID] {
			t.Errorf("%s is cited nowhere in reference/phantompress", r.ID)
		}
	}
}
