package phantompress

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/vectors"
)

func TestVectorsMatchTheReference(t *testing.T) {
	t.Parallel()
	files, err := vectors.Load("phantom-press")
	if err != nil {
		t.Fatal(err)
	}
	bad, n := vectors.Check(files, Vector)
	for _, m := range bad {
		t.Errorf("%s %s: %s", m.File, m.ID, m.Diff)
	}
	kinds := map[string]bool{}
	for _, f := range files {
		kinds[f.Kind] = true
	}
	if n < 30 || len(kinds) != 5 {
		t.Errorf("%d vectors of kinds %v; want law, answer-parse, settlement, score and extend", n, kinds)
	}
}

func TestTamperedVectorIsReported(t *testing.T) {
	t.Parallel()
	files, err := vectors.Load("phantom-press")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		if f.Kind != "settlement" {
			continue
		}
		var exp map[string]any
		json.Unmarshal(f.Vectors[0].Expected, &exp)
		exp["trust_after"] = 72.0
		files[i].Vectors[0].Expected, _ = json.Marshal(exp)
		bad, _ := vectors.Check(files[i:i+1], Vector)
		if len(bad) != 1 || bad[0].ID != f.Vectors[0].ID {
			t.Fatalf("tampered settlement vector not reported: %v", bad)
		}
		return
	}
	t.Fatal("no settlement vectors")
}
