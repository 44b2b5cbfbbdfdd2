package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// plainStep finds a step registered with a pattern string: godog compiles
// such a pattern again for every scenario of every run, which was a third
// of the kit's test time. sc.Step(pattern(`…`), …), the protocol's wrapper
// of suite.Pattern, compiles it once per process.
var plainStep = regexp.MustCompile("\\.(Step|Given|When|Then)\\(\\s*(`|\")")

// TestStepPatternsAreCompiledOnce: every step the runner's protocol
// packages register goes through suite.Pattern. The kit's own tests may
// register toy steps with plain strings.
func TestStepPatternsAreCompiledOnce(t *testing.T) {
	err := filepath.WalkDir(filepath.Join("..", "conformance"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if plainStep.MatchString(line) {
				t.Errorf("%s:%d registers a step with a plain string; write sc.Step(pattern(`...`), ...) (suite.Pattern) so it compiles once per process", path, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAPlainStepIsFound keeps the pattern above honest.
func TestAPlainStepIsFound(t *testing.T) {
	for line, want := range map[string]bool{
		"\tsc.Step(`^a step$`, w.step)":          true,
		"\tsc.When(\"^a step$\", w.step)":        true,
		"\tsc.Step(pattern(`^a step$`), w.step)": false,
		"\tsc.Step(suite.Pattern(`^x$`), f)":     false,
	} {
		if got := plainStep.MatchString(line); got != want {
			t.Errorf("%q: found %v, want %v", line, got, want)
		}
	}
}
