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
// path element is named "server": the shared request log; the server
// skeleton (Config, and the strict JSON decoder and coded-error writer every
// server shares; only servers import it); The Phantom Press, whose server
// still sits at the root of its folder (its engine is
// reference/phantompress/engine; moving the server is a follow-up); Pyyol's
// reference push agent, an HTTP endpoint (its engine is
// reference/pyyol/goofspiel); and the bounty's MCP server, Streamable HTTP
// in front of the bounty engine; the documented-fault injector and the
// agent audit, middleware every reference server can be wrapped in.
var httpPackages = []string{
	module + "/reference/faults",
	module + "/reference/audit",
	module + "/reference/httplog",
	module + "/reference/skeleton",
	module + "/reference/phantompress",
	module + "/reference/pyyol/agent",
	module + "/reference/bounty/mcpserver",
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
	if !under(pkg, "reference") || slices.Contains(httpPackages, pkg) {
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
	engines := 0
	for pkg, deps := range packageDeps(t) {
		if !isEngine(pkg) {
			continue
		}
		engines++
		if slices.ContainsFunc(deps, isNetHTTP) {
			t.Errorf("engine package %s imports net/http (directly or through another package)", pkg)
		}
	}
	if engines == 0 {
		t.Error("no engine package found: the classification is broken")
	}
}

// TestClassification pins the rule that tells engines from servers.
func TestClassification(t *testing.T) {
	for pkg, want := range map[string]bool{
		module + "/reference/iyra":                true,
		module + "/reference/iyra/proof":          true,
		module + "/reference/phantompress/engine": true,
		module + "/reference/pow":                 true,
		module + "/reference/iyra/server":         false,
		module + "/reference/forge/server":        false,
		module + "/reference/httplog":             false,
		module + "/reference/skeleton":            false,
		module + "/reference/pyyol/agent":         false,
		module + "/reference/bounty/mcpserver":    false,
		module + "/reference/pyyol/goofspiel":     true,
		module + "/reference/bounty":              true,
		module + "/conformance/iyra":              false,
	} {
		if got := isEngine(pkg); got != want {
			t.Errorf("isEngine(%s) = %v, want %v", pkg, got, want)
		}
	}
}

// isNetHTTP reports whether an import is net/http or one of its packages.
func isNetHTTP(pkg string) bool { return pkg == "net/http" || strings.HasPrefix(pkg, "net/http/") }
