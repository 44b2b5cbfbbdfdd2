package cli_test

import (
	"os"
	"testing"

	"github.com/agentgames/conformance/conformance/tamper"
)

// TestMain lets the parallel end-to-end runs, which wait out Retry-After
// and turn timeouts, all run at once instead of one per core.
func TestMain(m *testing.M) { os.Exit(tamper.Main(m, 4)) }
