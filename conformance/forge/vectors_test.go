package forge_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/vectors"
)

func TestVectorsReproduce(t *testing.T) {
	files, err := vectors.Load("forge")
	if err != nil {
		t.Fatal(err)
	}
	bad, n := vectors.Check(files, forge.Vector)
	for _, m := range bad {
		t.Errorf("%s %s: %s", m.File, m.ID, m.Diff)
	}
	if n < 20 {
		t.Errorf("only %d vectors", n)
	}
}
