package archtest

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the kit's import path.
const module = "github.com/agentgames/conformance"

// httpPackages are the packages under reference/ that serve HTTP although no
// path element is named "server": the shared request log, and The Phantom
// Press, whose server still sits at the root of its folder (its engine is
// reference/phantompress/engine; moving the server is a follow-up).
var httpPackages = []string{
	module + "/reference/httplog",
	module + "/reference/phantompress",
}

// packageDeps maps every package of the module to its transitive imports,
// as `go list -deps` computes them.
func packageDeps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if len(deps) == 0 {
		t.Fatal("go list found no packages")
	}
	return deps
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
		if slices.Contains(deps, "net/http") {
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
		module + "/conformance/iyra":              false,
	} {
		if got := isEngine(pkg); got != want {
			t.Errorf("isEngine(%s) = %v, want %v", pkg, got, want)
		}
	}
}
