package cli_test

import (
	"os"
	"testing"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/tamper"
)

// asCommand, set in a test binary's environment, makes that binary the
// conformance command itself (cli.Main, as cmd/conformance runs it), so
// tests can start it as a separate process (a background serve, a shell
// recipe) without building cmd/conformance.
const asCommand = "CONFORMANCE_TEST_AS_COMMAND"

// TestMain lets the parallel end-to-end runs, which wait out Retry-After
// and turn timeouts, all run at once instead of one per core.
func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(tamper.Main(m, 8))
}
