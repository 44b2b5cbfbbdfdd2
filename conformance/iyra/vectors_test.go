package iyra_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/vectors"
)

func loadVectors(t *testing.T) []vectors.File {
	t.Helper()
	files, err := vectors.Load("iyra")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range files {
		kinds[f.Kind] = true
	}
	if !kinds["proof"] || !kinds["sequence"] {
		t.Fatalf("want proof and sequence vectors, have %v", kinds)
	}
	return files
}

// TestVectorsReproduce recomputes every Iyra vector with the reference.
func TestVectorsReproduce(t *testing.T) {
	t.Parallel()
	bad, n := vectors.Check(loadVectors(t), iyra.Vector)
	for _, m := range bad {
		t.Errorf("%s %s: %s", m.File, m.ID, m.Diff)
	}
	if n < 30 {
		t.Errorf("only %d vectors checked", n)
	}
}

// TestTamperedVectorsAreReported flips one expected value per kind and
// requires the check to report exactly those vectors.
func TestTamperedVectorsAreReported(t *testing.T) {
	t.Parallel()
	files := loadVectors(t)
	tampered := map[string]bool{}
	for i := range files {
		v := &files[i].Vectors[0]
		var exp map[string]any
		if err := json.Unmarshal(v.Expected, &exp); err != nil {
			t.Fatal(err)
		}
		switch files[i].Kind {
		case "proof":
			exp["valid"] = !exp["valid"].(bool)
		case "sequence":
			exp["score"] = exp["score"].(float64) + 1
		}
		v.Expected, _ = json.Marshal(exp)
		tampered[files[i].Path+"/"+v.ID] = true
	}
	bad, _ := vectors.Check(files, iyra.Vector)
	if len(bad) != len(tampered) {
		t.Fatalf("reported %d mismatches, want %d: %+v", len(bad), len(tampered), bad)
	}
	for _, m := range bad {
		if !tampered[m.File+"/"+m.ID] || !strings.Contains(m.Diff, "-") {
			t.Errorf("unexpected mismatch %s %s: %s", m.File, m.ID, m.Diff)
		}
	}
}

// TestVectorUnknownKind rejects kinds the calculator does not know.
func TestVectorUnknownKind(t *testing.T) {
	t.Parallel()
	if _, err := iyra.Vector("nope", json.RawMessage(`{}`)); err == nil {
		t.Error("unknown kind accepted")
	}
}
