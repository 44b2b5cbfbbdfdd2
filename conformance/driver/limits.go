package driver

import (
	"context"

	"github.com/agentgames/conformance/conformance/verdict"
	"sync"
	"sync/atomic"
	"time"
)

// Limiter spaces requests to at most Rate per second across every driver of a
// run (--rate). A zero or negative rate means no limit.
type Limiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

// NewLimiter returns a limiter for rate requests per second.
func NewLimiter(rate float64) *Limiter {
	if rate <= 0 {
		return &Limiter{}
	}
	return &Limiter{interval: time.Duration(float64(time.Second) / rate)}
}

// Wait blocks until the next request may go, or ctx ends.
func (l *Limiter) Wait(ctx context.Context) error {
	if l == nil || l.interval == 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	return Sleep(ctx, time.Until(at))
}

// Sleep waits d on the wall clock, or until ctx ends (its error then).
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Budget is the run's allowance of state-changing requests (--max-writes).
// Live deployments meter writes per day; the budget keeps a conformance run
// from spending an implementer's whole quota.
type Budget struct {
	max  int64
	used atomic.Int64
}

// NewBudget returns a budget of max writes; max <= 0 means unlimited.
func NewBudget(max int) *Budget { return &Budget{max: int64(max)} }

// Take spends one write and reports whether it was available.
func (b *Budget) Take() bool {
	if b == nil || b.max <= 0 {
		return true
	}
	if b.used.Add(1) > b.max {
		b.used.Add(-1)
		return false
	}
	return true
}

// Used returns how many writes were spent.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// BreakerThreshold is how many transport failures in a row (refused
// connections, timeouts, broken bodies) open a Breaker.
const BreakerThreshold = 3

// SlowThreshold is how many answers in a row slower than half of --timeout
// open a Breaker: a target that always answers just in time would
// otherwise stretch a run to hours.
const SlowThreshold = 5

// Breaker counts transport failures, and answers slower than half of the
// request timeout, in a row. Once open it stays open for the rest of the
// protocol's run: requests fail at once with a harness error instead of
// each waiting out --timeout against a target that is down or crawling. A
// prompt answer resets both counts. A nil Breaker never opens.
type Breaker struct {
	mu       sync.Mutex
	failures int
	slow     int
	limit    time.Duration
}

func (b *Breaker) check() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures >= BreakerThreshold {
		return verdict.Errorf("target not answering: %d transport failures in a row, so this request was not sent", b.failures)
	}
	if b.slow >= SlowThreshold {
		return verdict.Errorf("target too slow: %d answers in a row took longer than half of --timeout %s, so this request was not sent", b.slow, b.limit)
	}
	return nil
}

func (b *Breaker) failed() {
	if b != nil {
		b.mu.Lock()
		b.failures++
		b.mu.Unlock()
	}
}

// answered records an answer that took took under a request timeout of
// limit.
func (b *Breaker) answered(took, limit time.Duration) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures = 0
	if limit > 0 && took > limit/2 {
		b.slow++
		b.limit = limit
		return
	}
	b.slow = 0
}
