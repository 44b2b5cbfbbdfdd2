package oas

import "sync"

// A run reads the same answer again and again: a session re-read after
// every rejected action, a board polled between writes, the same refusal
// to each malformed body. Its verdict under the document is the same each
// time, since it depends only on the operation, the status and the bytes,
// and a live Iyra run spent a tenth of its CPU parsing and visiting such
// repeats. passedCache remembers the answers that matched, byte for byte
// (no hash: two bodies share an entry only when they are equal), so a
// repeat costs a map lookup. Mismatches are never remembered: each is
// checked and reported in full.

// passKey is one answer that matched: the operation, the status and the
// exact body.
type passKey struct {
	route  *route
	status int
	body   string
}

// Bounds of the cache: bodies larger than maxPassedBody are always checked,
// and the cache starts over once it holds maxPassedBytes of bodies, so its
// memory stays bounded however long the run.
const (
	maxPassedBody  = 16 << 10
	maxPassedBytes = 8 << 20
)

// passedCache is safe for concurrent use: one validator serves every run of
// the process (suite's loadValidator).
type passedCache struct {
	mu    sync.Mutex
	seen  map[passKey]struct{}
	bytes int
}

// has reports whether body already matched for r and status.
func (c *passedCache) has(r *route, status int, body []byte) bool {
	if len(body) > maxPassedBody {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.seen[passKey{r, status, string(body)}] // no copy: the compiler reads body in place
	return ok
}

// add remembers that body matched for r and status.
func (c *passedCache) add(r *route, status int, body []byte) {
	if len(body) > maxPassedBody {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil || c.bytes+len(body) > maxPassedBytes {
		c.seen, c.bytes = map[passKey]struct{}{}, 0
	}
	c.seen[passKey{r, status, string(body)}] = struct{}{}
	c.bytes += len(body)
}
