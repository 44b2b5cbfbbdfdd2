package archtest

import (
	"errors"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the kit's import path.
const module = "github.com/agentgames/conformance"

// httpPackages are the packages under reference/ that serve HTTP although no
// path element is named "server", each with the reason it may import
// net/http. Everything else under reference/ outside a server/ folder is an
// engine and stays pure. TestHTTPPackagesAreServers keeps this list honest.
var httpPackages = map[string]string{
	module + "/reference/faults":      "the documented-fault injector, middleware any reference server can be wrapped in",
	module + "/reference/audit":       "the agent audit: middleware that watches the requests agents send a reference server",
	module + "/reference/httplog":     "the servers' shared request log (an http.Handler wrapper)",
	module + "/reference/skeleton":    "the servers' shared toolkit: Config, coded JSON answers and input policy for handlers",
	module + "/reference/pyyol/agent": "Pyyol's reference push agent: an HTTP server by definition (its game logic is reference/pyyol/goofspiel)",
}

// packageDeps maps every package of the module to its imports, direct and
// through other packages of the module (standard-library imports count as
// they are written). It reads the sources in-process with go/build, so the
// test cache sees every file it depends on.
func packageDeps(t *testing.T) map[string][]string {
	t.Helper()
	direct := map[string][]string{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel("..", path)
		direct[module+"/"+filepath.ToSlash(rel)] = pkg.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(direct) == 0 {
		t.Fatal("found no packages")
	}
	deps := map[string][]string{}
	for pkg := range direct {
		deps[pkg] = closure(direct, pkg)
	}
	return deps
}

// closure lists everything pkg imports, following the module's packages.
func closure(direct map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var out []string
	var visit func(string)
	visit = func(p string) {
		for _, d := range direct[p] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				visit(d)
			}
		}
	}
	visit(pkg)
	return out
}

// under reports whether pkg is dir or inside it.
func under(pkg, dir string) bool {
	return pkg == module+"/"+dir || strings.HasPrefix(pkg, module+"/"+dir+"/")
}

// isEngine reports whether pkg is a pure reference package: under
// reference/, no "server" path element, and not a known HTTP package.
func isEngine(pkg string) bool {
	if _, ok := httpPackages[pkg]; ok || !under(pkg, "reference") {
		return false
	}
	return !slices.Contains(strings.Split(pkg, "/"), "server")
}

// TestReferenceAndSpecNeverImportTheRunner keeps the import direction
// cmd -> conformance -> reference: a reference server or a catalogue that
// pulled in the runner would drag godog, rapid and kin-openapi into every
// agent writer's offline server.
func TestReferenceAndSpecNeverImportTheRunner(t *testing.T) {
	for pkg, deps := range packageDeps(t) {
		if !under(pkg, "reference") && !under(pkg, "spec") && !under(pkg, "features") &&
			!under(pkg, "fixtures") && !under(pkg, "vectors") {
			continue
		}
		for _, d := range deps {
			if under(d, "conformance") || under(d, "cmd") {
				t.Errorf("%s imports %s (directly or through another package)", pkg, d)
			}
		}
	}
}

// TestEnginesNeverImportNetHTTP keeps the engines pure: the same engine runs
// inside a server, inside the runner's model and inside a benchmark.
func TestEnginesNeverImportNetHTTP(t *testing.T) {
	deps := packageDeps(t)
	if engines := countEngines(deps); engines == 0 {
		t.Error("no engine package found: the classification is broken")
	}
	for _, pkg := range netHTTPEngines(deps) {
		t.Errorf("engine package %s imports net/http (directly or through another package)", pkg)
	}
}

// TestAPlantedViolationIsCaught proves the rule bites: an engine importing
// net/http directly, or through a server package, is reported; a server
// package importing it is not.
func TestAPlantedViolationIsCaught(t *testing.T) {
	deps := map[string][]string{
		module + "/reference/pure":          {"sort"},
		module + "/reference/direct":        {"net/http"},
		module + "/reference/indirect":      {module + "/reference/skeleton", "net/http"},
		module + "/reference/direct/server": {"net/http"},
		module + "/reference/skeleton":      {"net/http"},
	}
	got := netHTTPEngines(deps)
	want := []string{module + "/reference/direct", module + "/reference/indirect"}
	if !slices.Equal(got, want) {
		t.Errorf("flagged %v, want %v", got, want)
	}
}

// TestHTTPPackagesAreServers keeps the exemptions honest: each one exists
// and really uses net/http (otherwise it is an engine and must stay pure).
func TestHTTPPackagesAreServers(t *testing.T) {
	deps := packageDeps(t)
	for pkg, reason := range httpPackages {
		d, ok := deps[pkg]
		switch {
		case !ok:
			t.Errorf("%s (%s) no longer exists: drop it from httpPackages", pkg, reason)
		case !slices.ContainsFunc(d, isNetHTTP):
			t.Errorf("%s does not import net/http: it is an engine, drop it from httpPackages", pkg)
		}
	}
}

// countEngines counts the engine packages among deps.
func countEngines(deps map[string][]string) int {
	n := 0
	for pkg := range deps {
		if isEngine(pkg) {
			n++
		}
	}
	return n
}

// netHTTPEngines lists, sorted, the engine packages whose imports (as given,
// already closed over the module) include net/http.
func netHTTPEngines(deps map[string][]string) []string {
	var out []string
	for pkg, d := range deps {
		if isEngine(pkg) && slices.ContainsFunc(d, isNetHTTP) {
			out = append(out, pkg)
		}
	}
	slices.Sort(out)
	return out
}

// TestClassification pins the rule that tells engines from servers.
func TestClassification(t *testing.T) {
	for pkg, want := range map[string]bool{
		module + "/reference/iyra":                    true,
		module + "/reference/iyra/proof":              true,
		module + "/reference/phantompress/engine":     true,
		module + "/reference/pow":                     true,
		module + "/reference/iyra/server":             false,
		module + "/reference/forge/server":            false,
		module + "/reference/httplog":                 false,
		module + "/reference/shareexchange":           true,
		module + "/reference/shareexchange/server":    false,
		module + "/reference/bounty":                  true,
		module + "/reference/bounty/server/mcpserver": false,
		module + "/reference/pyyol/goofspiel":         true,
		module + "/reference/pyyol/agent":             false,
		module + "/reference/skeleton":                false,
		module + "/conformance/iyra":                  false,
	} {
		if got := isEngine(pkg); got != want {
			t.Errorf("isEngine(%s) = %v, want %v", pkg, got, want)
		}
	}
}

// isNetHTTP reports whether an import is net/http or one of its packages.
func isNetHTTP(pkg string) bool { return pkg == "net/http" || strings.HasPrefix(pkg, "net/http/") }
