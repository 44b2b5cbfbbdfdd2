// Package runbench holds the runner's speed benchmarks on real scenarios:
// a whole live run of a protocol against an in-process `conformance serve`
// compared with a raw http.Client replaying exactly the requests that run
// sent, and the full live suite compared with the embedded run. It has no
// code of its own outside its tests; it lives apart so that no test
// package's TestMain (which relaxes the garbage collector for short runs)
// changes what the benchmarks measure.
package runbench
