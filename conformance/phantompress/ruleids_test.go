package phantompress

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryFailureNamesItsRule fails on a failure call (Failf) whose rule ID
// is an empty string literal: such a failure would lean on the scenario's
// tag, which names the wrong rule when a step serves several.
func TestEveryFailureNamesItsRule(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !isFailf(call.Fun) {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && (lit.Value == "\"\"" || lit.Value == "``") {
				t.Errorf("%s: a failure without a rule ID", fset.Position(call.Pos()))
			}
			return true
		})
	}
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
