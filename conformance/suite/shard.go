package suite

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a run split across CI jobs (--shard i/n): the
// selected checks, numbered in run order across every protocol (scenarios in
// file order, then properties), go round-robin to the n shards, so the n
// shards together run exactly the checks of the unsharded run, each once.
// The zero Shard runs everything.
type Shard struct {
	Index int // 1-based
	Count int
}

// ParseShard reads "i/n" with 1 <= i <= n.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 1 || index > count {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, e.g. 2/3", s)
	}
	return Shard{Index: index, Count: count}, nil
}

// String is "i/n", or "" for the whole run.
func (s Shard) String() string {
	if s.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// owns reports whether the check numbered n (0-based, in run order) is this
// shard's.
func (s Shard) owns(n int) bool {
	return s.Count <= 1 || n%s.Count == s.Index-1
}

// inShard numbers the next selected check and reports whether this run's
// shard owns it.
func (r *run) inShard() bool {
	n := r.checks
	r.checks++
	return r.cfg.Shard.owns(n)
}
