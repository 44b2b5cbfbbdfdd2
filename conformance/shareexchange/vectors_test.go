package shareexchange_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/vectors"
)

func TestVectorsReproduce(t *testing.T) {
	files, err := vectors.Load("share-exchange")
	if err != nil {
		t.Fatal(err)
	}
	bad, n := vectors.Check(files, shareexchange.Vector)
	for _, m := range bad {
		t.Errorf("%s %s: %s", m.File, m.ID, m.Diff)
	}
	if n < 14 {
		t.Errorf("only %d vectors", n)
	}
}
