package phantompress_test

import (
	"os"
	"testing"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// TestMain runs the tests with the collector relaxed (harness.RelaxGC): the
// runs they make are mostly short-lived garbage.
func TestMain(m *testing.M) {
	harness.RelaxGC()
	os.Exit(m.Run())
}
