package protocols_test

import (
	"os"
	"testing"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// TestMain runs the tests with the collector relaxed (harness.Main calls
// RelaxGC: the runs they make are mostly short-lived garbage) and up to
// eight parallel runs at once: each protocol's runs have their own
// reference and spend much of their time waiting (the Pyyol gateway's turn
// timeouts, Retry-After), which one run per core leaves idle.
func TestMain(m *testing.M) { os.Exit(harness.Main(m, 8)) }
