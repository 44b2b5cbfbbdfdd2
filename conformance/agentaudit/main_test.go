package agentaudit_test

import (
	"os"
	"testing"

	"github.com/agentgames/conformance/conformance/tamper"
)

// TestMain lets up to 8 parallel tests run at once (tamper.Main): an
// agent scenario mostly waits (a socket's timeouts and grace periods), so
// one test per core leaves the cores idle.
func TestMain(m *testing.M) { os.Exit(tamper.Main(m, 8)) }
