// Package memo remembers the answers of pure computations the runner
// repeats: a seeded reference issues the same proof-of-work challenges and
// puzzles in every run of a seed, and the kit's tests start hundreds of
// runs in one process, so solving each once instead of once per run saves
// the hashing without changing a single request.
package memo

import "sync"

// MaxEntries bounds a Cache; past it, answers are computed but no longer
// kept, so a long process cannot grow without end.
const MaxEntries = 1 << 14

// Cache maps keys to the answers of one pure function. It is safe for
// concurrent use; the zero value is ready.
type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// Get returns the answer remembered for k.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// Put remembers v as the answer for k, while the cache has room.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	if len(c.m) < MaxEntries {
		c.m[k] = v
	}
}

// Do returns the answer for k, computing it with f the first time. Two
// callers that miss at once both compute it; f must be pure.
func (c *Cache[K, V]) Do(k K, f func(K) V) V {
	if v, ok := c.Get(k); ok {
		return v
	}
	v := f(k)
	c.Put(k, v)
	return v
}
