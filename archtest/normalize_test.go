package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Normalize, then judge (issue 24): the Pyyol gateway checks read frames
// only through the one tolerant decoder (conformance/pyyol/frames_read.go),
// which accepts every layout the docs leave open and records which one a
// target used. A check that declared its own struct tag for an envelope
// key with several readings (view or payload, result or payload, type or
// kind, move or payload) or decoded a frame's wire bytes would judge one
// layout only: a faithful target in the other would fail a MUST rule.

// envelopeKeys are the frame keys whose place the docs leave open.
var envelopeKeys = map[string]bool{"view": true, "result": true, "kind": true, "move": true}

// decoderFiles may name the wire: the decoder itself and the schema
// checks, which validate the frame as it came.
var decoderFiles = map[string]bool{"frames_read.go": true, "frames.go": true}

// TestGatewayChecksReadOnlyTheModel fails on a gateway-side source file of
// conformance/pyyol that declares a struct tag for an envelope key or
// uses a frame's wire bytes other than to show them (string(f.wire)).
func TestGatewayChecksReadOnlyTheModel(t *testing.T) {
	dir := filepath.Join("..", "conformance", "pyyol")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset, checked := token.NewFileSet(), 0
	for _, e := range entries {
		name := e.Name()
		if !gatewaySide(name) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, v := range rawReads(f) {
			t.Errorf("%s: %s", fset.Position(v.pos), v.what)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d gateway files checked", checked)
	}
}

// gatewaySide reports whether a file of conformance/pyyol is a gateway
// check: Go, no test, not the decoder, not the push side.
func gatewaySide(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !decoderFiles[name] &&
		!strings.Contains(name, "push") && !strings.Contains(name, "referee")
}

// rawRead is one place a check reads the wire.
type rawRead struct {
	pos  token.Pos
	what string
}

// rawReads finds the struct tags naming envelope keys and the uses of a
// frame's wire other than a string conversion.
func rawReads(f *ast.File) []rawRead {
	var out []rawRead
	shown := map[*ast.SelectorExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if key := jsonKey(n.Tag); envelopeKeys[key] {
				out = append(out, rawRead{n.Pos(), `a struct tag json:"` + key + `": read the frame through decodeFrame`})
			}
		case *ast.CallExpr:
			if fun, ok := n.Fun.(*ast.Ident); ok && fun.Name == "string" && len(n.Args) == 1 {
				if sel, ok := n.Args[0].(*ast.SelectorExpr); ok {
					shown[sel] = true
				}
			}
		case *ast.SelectorExpr:
			if n.Sel.Name == "wire" && !shown[n] {
				out = append(out, rawRead{n.Pos(), "a frame's wire bytes read: judge the model (frame), not the wire"})
			}
		}
		return true
	})
	return out
}

// jsonKey is the JSON name a struct tag gives its field.
func jsonKey(tag *ast.BasicLit) string {
	if tag == nil {
		return ""
	}
	s, err := strconv.Unquote(tag.Value)
	if err != nil {
		return ""
	}
	key, _, _ := strings.Cut(reflect.StructTag(s).Get("json"), ",")
	return key
}

// TestRawReadsAreFound: the scan finds a planted struct tag and a decoded
// wire, and lets a wire shown in a message pass.
func TestRawReadsAreFound(t *testing.T) {
	src := "package p\n" +
		"type turn struct { View []byte `json:\"view\"`; Seat int `json:\"seat\"` }\n" +
		"func f(x frame) { json.Unmarshal(x.wire, nil); _ = string(x.wire) }\n"
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := rawReads(f); len(got) != 2 {
		t.Fatalf("found %d raw reads, want 2: %v", len(got), got)
	}
}
