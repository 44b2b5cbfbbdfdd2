package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/protocols"
	featurefiles "github.com/agentgames/conformance/features"
)

// featuresWithoutStepsFile names, by "<folder>/<file>.feature", the feature
// files that have no steps_<feature>.go of their own, and why (for example:
// it only uses steps of steps_shared.go). Every feature file has one today.
var featuresWithoutStepsFile = map[string]string{}

// TestStepFilesAreNamedAfterTheirFeatures fails when a registered
// protocol's runner package has a steps_*.go file that names no feature
// file of the protocol (steps_<feature>.go, steps_<feature>_<rule>.go for
// a feature split by Rule, or steps_shared.go), a feature file without its
// steps_<feature>.go and no reason in featuresWithoutStepsFile, or a step
// registered outside the steps files: a reader finds a feature's steps by
// the feature's name.
func TestStepFilesAreNamedAfterTheirFeatures(t *testing.T) {
	features := map[string]map[string]string{} // package -> feature key -> folder/file
	for _, p := range protocols.All() {
		if features[p.Package] == nil {
			features[p.Package] = map[string]string{}
		}
		names, err := fs.Glob(p.FeatureFS(), p.DataFolder()+"/*.feature")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if path.Base(name) == featurefiles.AgentFile {
				continue // the rules for agents run in conformance/agentaudit, not in the protocol's runner
			}
			features[p.Package][featureKey(name)] = name
		}
	}
	for pkg, feats := range features {
		if len(feats) == 0 {
			t.Errorf("conformance/%s: found no feature files", pkg)
			continue
		}
		problems, err := stepFileProblems(filepath.Join("..", "conformance", pkg), feats, featuresWithoutStepsFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("conformance/%s: %s", pkg, p)
		}
	}
}

// TestStepFileScanFindsMisnamedFiles: the scan of a planted package flags
// a steps file naming no feature, a feature without its steps file and a
// step registered in a helper file, and accepts the shared file, a
// feature's file, a Rule split of it and an exempt feature.
func TestStepFileScanFindsMisnamedFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"steps.go":              "package p\nfunc Steps() {}\n",
		"steps_shared.go":       "package p\nfunc shared(sc *suite.ScenarioContext) { sc.Step(pattern(`^a$`), nil) }\n",
		"steps_offer.go":        "package p\nfunc offer(sc *suite.ScenarioContext) { sc.Step(pattern(`^b$`), nil) }\n",
		"steps_offer_limits.go": "package p\nfunc limits(sc *suite.ScenarioContext) { sc.Step(pattern(`^c$`), nil) }\n",
		"steps_topic.go":        "package p\nfunc topic() {}\n",
		"helper.go":             "package p\nfunc helper(sc *suite.ScenarioContext) { sc.Step(pattern(`^d$`), nil) }\n",
		"steps_offer_test.go":   "package p\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	feats := map[string]string{"offer": "x/offer.feature", "pull_back": "x/pull-back.feature", "shared_only": "x/shared-only.feature"}
	exempt := map[string]string{"x/shared-only.feature": "uses shared steps only"}
	problems, err := stepFileProblems(dir, feats, exempt)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"helper.go registers a step outside the steps files",
		"steps_topic.go names no feature file (want steps_<feature>.go, steps_<feature>_<rule>.go or steps_shared.go)",
		"x/pull-back.feature has no steps_pull_back.go (or a reason in featuresWithoutStepsFile)",
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// featureKey is the steps file suffix of a feature file: its base name
// without .feature, "-" turned into "_".
func featureKey(name string) string {
	return strings.ReplaceAll(strings.TrimSuffix(path.Base(name), ".feature"), "-", "_")
}

// stepFileProblems lists, sorted, what breaks the naming rule in the
// non-test Go files of dir, given the package's features (key -> folder/file)
// and the features exempt from having a steps file.
func stepFileProblems(dir string, feats, exempt map[string]string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var problems []string
	have := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		stepsFile := name == "steps.go" || strings.HasPrefix(name, "steps_")
		if strings.HasPrefix(name, "steps_") {
			key := strings.TrimSuffix(strings.TrimPrefix(name, "steps_"), ".go")
			if feat, ok := servedFeature(key, feats); ok {
				have[feat] = true
			} else if key != "shared" {
				problems = append(problems, name+" names no feature file (want steps_<feature>.go, steps_<feature>_<rule>.go or steps_shared.go)")
			}
		}
		if !stepsFile {
			registers, err := registersSteps(filepath.Join(dir, name))
			if err != nil {
				return nil, err
			}
			if registers {
				problems = append(problems, name+" registers a step outside the steps files")
			}
		}
	}
	for key, file := range feats {
		if !have[key] && exempt[file] == "" {
			problems = append(problems, file+" has no steps_"+key+".go (or a reason in featuresWithoutStepsFile)")
		}
	}
	sort.Strings(problems)
	return problems, nil
}

// servedFeature returns the feature a steps file key serves: the feature
// itself, or the feature a "<feature>_<rule>" split belongs to.
func servedFeature(key string, feats map[string]string) (string, bool) {
	if _, ok := feats[key]; ok {
		return key, true
	}
	for feat := range feats {
		if strings.HasPrefix(key, feat+"_") {
			return feat, true
		}
	}
	return "", false
}

// registersSteps reports whether the file calls Step with a pattern(...)
// or suite.Pattern(...) argument, the form every step registration takes.
func registersSteps(file string) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return false, err
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Step" {
			if arg, ok := call.Args[0].(*ast.CallExpr); ok && isPatternCall(arg.Fun) {
				found = true
			}
		}
		return !found
	})
	return found, nil
}

// isPatternCall reports whether fun is pattern or suite.Pattern.
func isPatternCall(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name == "pattern"
	case *ast.SelectorExpr:
		return f.Sel.Name == "Pattern"
	}
	return false
}
