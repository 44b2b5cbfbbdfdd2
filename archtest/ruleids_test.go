package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryFailureNamesItsRule fails on a failure call (Failf) anywhere in
// the runner whose rule ID is an empty string literal: such a failure would
// lean on the scenario's tag, which names the wrong rule when a step serves
// several. It walks every package under conformance/, so a new protocol's
// steps are held to it without a copy of this test.
func TestEveryFailureNamesItsRule(t *testing.T) {
	fset := token.NewFileSet()
	walked := 0
	err := filepath.WalkDir(filepath.Join("..", "conformance"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		walked++
		for _, pos := range emptyRuleFailures(f) {
			t.Errorf("%s: a failure without a rule ID", fset.Position(pos))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if walked == 0 {
		t.Fatal("no runner sources found under ../conformance")
	}
}

// TestEmptyRuleFailuresAreFound: the scan itself finds a planted failure
// without a rule ID, in both spellings of the empty literal.
func TestEmptyRuleFailuresAreFound(t *testing.T) {
	src := "package p\nfunc f() { _ = verdict.Failf(\"\", nil, nil, \"x\"); _ = Failf(``, 1); _ = verdict.Failf(\"R-1\", nil, nil, \"y\") }\n"
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(emptyRuleFailures(f)); got != 2 {
		t.Fatalf("found %d failures without a rule ID, want 2", got)
	}
}

// emptyRuleFailures returns the position of every Failf call in f whose
// first argument is an empty string literal.
func emptyRuleFailures(f *ast.File) []token.Pos {
	var found []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 || !isFailf(call.Fun) {
			return true
		}
		if lit, ok := call.Args[0].(*ast.BasicLit); ok && (lit.Value == `""` || lit.Value == "``") {
			found = append(found, call.Pos())
		}
		return true
	})
	return found
}

// isFailf reports whether fun is verdict.Failf (or a local Failf).
func isFailf(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name == "Failf"
	case *ast.Ident:
		return f.Name == "Failf"
	}
	return false
}
