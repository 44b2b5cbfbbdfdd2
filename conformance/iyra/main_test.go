package iyra_test

import (
	"os"
	"testing"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// TestMain runs the tests with the collector relaxed and up to 8 parallel
// tests at once (harness.Main): the live runs against broken references
// spend most of their time waiting (a Retry-After, a board's clock that
// moves in whole seconds), so one test per core leaves the cores idle.
func TestMain(m *testing.M) { os.Exit(harness.Main(m, 8)) }
