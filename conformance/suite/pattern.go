package suite

import (
	"regexp"
	"sync"
)

// patterns holds every step pattern compiled so far, keyed by its source.
var patterns sync.Map

// Pattern returns the step pattern expr compiled once per process. godog
// builds a scenario's step definitions anew for every scenario it meets,
// and a protocol registers a few hundred patterns; compiling them again for
// each of a run's hundreds of scenarios was a third of the kit's CPU time.
// A compiled *regexp.Regexp is safe for concurrent use, so one copy serves
// every run. Register steps as sc.Step(suite.Pattern(`^…$`), handler).
func Pattern(expr string) *regexp.Regexp {
	if re, ok := patterns.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := patterns.LoadOrStore(expr, regexp.MustCompile(expr))
	return re.(*regexp.Regexp)
}
