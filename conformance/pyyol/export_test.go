package pyyol

import "time"

// SetWaitLimit shortens the wait for a gateway frame in the kit's tests
// (a wedged match would otherwise take 30 s to fail) and returns a restore.
func SetWaitLimit(d time.Duration) func() {
	old := waitLimit
	waitLimit = d
	return func() { waitLimit = old }
}
