// Package skeleton holds what every reference server shares: its
// configuration (seed, clock, request log), the adjustable clock that the
// embedded runs move, and the HTTP plumbing every server would otherwise
// write again: the input policy (ReadBody, DecodeStrict: one JSON object of
// valid UTF-8, no repeated key, no undocumented field, refused with a coded
// InputError whose message shows no Go type), the coded-error writer
// (WriteError) and answers encoded under a server's lock and written after
// it (EncodeJSON, Encoded.Write, Buffered), so that no client that never
// reads can freeze a server. It lives on the reference side so that a
// reference server never imports the runner; FORGE, the bounty and Pyyol
// build on it.
package skeleton

import (
	"log"
	"sync"
	"time"
)

// Config configures a reference server.
type Config struct {
	// Seed makes every random choice of the server (keys, challenges, case
	// generation) reproducible. `serve --seed N` and `run --seed N` pass
	// the same N, so both build the same reference world.
	Seed int64
	// Now is the server's clock; tests move it to cross a daily reset. Nil
	// means time.Now.
	Now func() time.Time
	// Log, when set, receives one line per request (conformance serve).
	Log *log.Logger
	// Production makes the server play a production deployment: it drops
	// the development opt-ins a contract allows (Pyyol's loopback
	// endpoints, "dev can opt in for localhost"). `serve --production`.
	Production bool
}

// Clock returns cfg.Now, or time.Now when it is unset, so servers need not
// check for nil themselves.
func (cfg Config) Clock() func() time.Time {
	if cfg.Now != nil {
		return cfg.Now
	}
	return time.Now
}

// Clock is an adjustable clock shared by an embedded reference server and
// the steps that drive it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock reading t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
