package tamper

import (
	"os"
	"runtime/debug"
)

// testGCPercent is the collector's target in the kit's heavier test
// binaries: a run's transcripts, frames and schemas are short-lived garbage,
// and at Go's default of 100 collecting it was a third of their CPU time.
// A heap five times the live data is a few hundred MB at most.
const testGCPercent = 400

// RelaxGC sets the test binary's GC target to testGCPercent, unless the
// GOGC environment variable chose one. Call it from a package's TestMain
// (Main calls it).
func RelaxGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(testGCPercent)
	}
}
