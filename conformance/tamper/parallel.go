package tamper

import (
	"flag"
	"strconv"
	"testing"
)

// Main runs a test binary's tests, letting up to parallel tests marked
// t.Parallel run at once unless the command line sets -test.parallel, and
// returns the exit code for os.Exit; it also relaxes the collector
// (RelaxGC). go test's default is one per core,
// which suits tests that compute; tamper cases and live runs mostly wait
// (a gateway's turn timeout, a Retry-After), so on a 2-core machine the
// default leaves the cores idle while two of them wait. Use it from a
// package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(tamper.Main(m, 8)) }
func Main(m *testing.M, parallel int) int {
	RelaxGC()
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(parallel))
	}
	return m.Run()
}
