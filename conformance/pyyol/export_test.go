package pyyol

import (
	"sync"
	"time"
)

// SetWaitLimit shortens the wait for a gateway frame in the kit's tests
// (a wedged match would otherwise take 30 s to fail) and returns a restore.
func SetWaitLimit(d time.Duration) func() {
	old := waitLimit
	waitLimit = d
	return func() { waitLimit = old }
}

// SetPropagation shortens the wait for a tier change to reach the public
// menu and returns a restore.
func SetPropagation(d time.Duration) func() {
	old := propagation
	propagation = d
	return func() { propagation = old }
}

var parallelPhase sync.Once

// ParallelWaitLimit sets the wait for a gateway frame of the tests that
// run side by side (t.Parallel at the top level). Go starts them only
// after every sequential test, which may set and restore a limit of its
// own, has ended, so the limit is set once, before any of them dials, and
// never restored.
func ParallelWaitLimit() { parallelPhase.Do(func() { waitLimit = 3 * time.Second }) }
