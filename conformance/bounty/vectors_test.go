package bounty_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/vectors"
)

// TestVectorsReproduce recomputes every bounty vector with the reference.
func TestVectorsReproduce(t *testing.T) {
	files, err := vectors.Load("bounty")
	if err != nil {
		t.Fatal(err)
	}
	bad, n := vectors.Check(files, bounty.Vector)
	for _, m := range bad {
		t.Errorf("%s %s: %s", m.File, m.ID, m.Diff)
	}
	if n < 50 {
		t.Errorf("only %d vectors checked", n)
	}
}
