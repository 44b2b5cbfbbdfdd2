package monopoly_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain runs the tests with the collector relaxed (GOGC=400 unless the
// environment sets GOGC): the random matches are short-lived garbage, and
// at the default target collecting it cost about as much as playing them.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
