package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/protocols"
)

// TestEveryWorldEmbedsTheScenarioBase fails when a registered protocol's
// world (the value its step registration builds for one scenario) does not
// embed suite.Scenario, directly or through one of its package's own
// embedded types: the last response, the transcript mark, the state before
// the When step and the cleanups then live in one place, not in a copy per
// protocol. The worlds are unexported and built inside Steps, so the test
// reads the sources.
func TestEveryWorldEmbedsTheScenarioBase(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range protocols.All() {
		if seen[p.Package] {
			continue
		}
		seen[p.Package] = true
		pkg, err := parseRunnerPackage(filepath.Join("..", "conformance", p.Package))
		if err != nil {
			t.Fatal(err)
		}
		worlds := pkg.worlds()
		t.Logf("conformance/%s: worlds %v", p.Package, worlds)
		if len(worlds) == 0 {
			t.Errorf("conformance/%s: found no world (no function taking a *suite.ScenarioContext and a *suite.Env builds one)", p.Package)
		}
		for _, w := range worlds {
			if !pkg.embedsBase(w, map[string]bool{}) {
				t.Errorf("conformance/%s: world type %s does not embed suite.Scenario", p.Package, w)
			}
		}
	}
}

// TestWorldScanFindsAWorldWithoutTheBase: the scan finds both worlds of a
// planted package, the one built by a constructor among them, and tells the
// one embedding the base (through an embedded type) from the one that does
// not.
func TestWorldScanFindsAWorldWithoutTheBase(t *testing.T) {
	dir := t.TempDir()
	src := `package p
type base struct{ suite.Scenario[int] }
type good struct{ *base; n int }
type bad struct{ last int }
func newBad(env *suite.Env) *bad { return &bad{} }
func goodSteps(sc *suite.ScenarioContext, env *suite.Env) { w := &good{}; _ = w }
func badSteps(sc *suite.ScenarioContext, env *suite.Env) { w := newBad(env); _ = w }
func helper(sc *suite.ScenarioContext, g *good) { x := &bad{}; _ = x }
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := parseRunnerPackage(dir)
	if err != nil {
		t.Fatal(err)
	}
	worlds := pkg.worlds()
	if strings.Join(worlds, ",") != "bad,good" {
		t.Fatalf("worlds %v, want [bad good]", worlds)
	}
	if !pkg.embedsBase("good", map[string]bool{}) || pkg.embedsBase("bad", map[string]bool{}) {
		t.Fatal("the scan does not tell a world with the base from one without")
	}
}

// runnerPackage is the parsed non-test sources of one step package.
type runnerPackage struct {
	structs map[string]*ast.StructType
	funcs   []*ast.FuncDecl
}

// parseRunnerPackage reads the non-test Go files of dir.
func parseRunnerPackage(dir string) (*runnerPackage, error) {
	pkg := &runnerPackage{structs: map[string]*ast.StructType{}}
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		pkg.add(f)
	}
	return pkg, nil
}

// add records f's struct types and functions.
func (pkg *runnerPackage) add(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			pkg.funcs = append(pkg.funcs, d)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok {
						pkg.structs[ts.Name.Name] = st
					}
				}
			}
		}
	}
}

// worlds returns, sorted, the struct types that a step registration
// (a function taking a *suite.ScenarioContext and a *suite.Env) builds in
// its first assignment of a package struct: by a composite literal or a
// package function returning one.
func (pkg *runnerPackage) worlds() []string {
	found := map[string]bool{}
	for _, fn := range pkg.funcs {
		if fn.Recv != nil || fn.Body == nil || !takes(fn, "suite", "ScenarioContext") || !takes(fn, "suite", "Env") {
			continue
		}
		for _, stmt := range fn.Body.List {
			if name := pkg.builtStruct(stmt); name != "" {
				found[name] = true
				break
			}
		}
	}
	out := make([]string, 0, len(found))
	for name := range found {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// takes reports whether fn has a parameter of type *pkg.name.
func takes(fn *ast.FuncDecl, pkg, name string) bool {
	for _, field := range fn.Type.Params.List {
		if star, ok := field.Type.(*ast.StarExpr); ok && isSelector(star.X, pkg, name) {
			return true
		}
	}
	return false
}

// isSelector reports whether e is pkg.name.
func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// builtStruct returns the package struct that stmt (x := ...) builds, or "".
func (pkg *runnerPackage) builtStruct(stmt ast.Stmt) string {
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return ""
	}
	e := as.Rhs[0]
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		if id, ok := e.Type.(*ast.Ident); ok && pkg.structs[id.Name] != nil {
			return id.Name
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			return pkg.constructed(id.Name)
		}
	}
	return ""
}

// constructed returns the package struct the package function name returns
// (as T or *T), or "".
func (pkg *runnerPackage) constructed(name string) string {
	for _, fn := range pkg.funcs {
		if fn.Recv != nil || fn.Name.Name != name || fn.Type.Results == nil || len(fn.Type.Results.List) == 0 {
			continue
		}
		t := fn.Type.Results.List[0].Type
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		if id, ok := t.(*ast.Ident); ok && pkg.structs[id.Name] != nil {
			return id.Name
		}
	}
	return ""
}

// embedsBase reports whether struct name embeds suite.Scenario[...], as a
// value or a pointer, directly or through an embedded package struct.
func (pkg *runnerPackage) embedsBase(name string, visiting map[string]bool) bool {
	st := pkg.structs[name]
	if st == nil || visiting[name] {
		return false
	}
	visiting[name] = true
	for _, field := range st.Fields.List {
		if len(field.Names) > 0 {
			continue
		}
		t := field.Type
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		switch t := t.(type) {
		case *ast.IndexExpr:
			if isSelector(t.X, "suite", "Scenario") {
				return true
			}
		case *ast.Ident:
			if pkg.embedsBase(t.Name, visiting) {
				return true
			}
		}
	}
	return false
}
