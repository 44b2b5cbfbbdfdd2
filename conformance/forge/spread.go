package forge

import (
	"context"
	"net/http"
	"sync"

	"github.com/agentgames/conformance/conformance/driver"
)

// The DSL differential property publishes some six hundred packages, all
// rejected, as one identity. Against a live deployment a per-key rate limit
// (FORGE-RATE-LIMIT; the reference allows bursts of 120) then answered 429
// with Retry-After: 1 every hundred packages, and the run spent eight
// seconds of its nine waiting, where the embedded run, whose clock moves
// only when the run waits, spent none. A rate-limited publish now moves to
// another identity of a small pool instead, registered only when the
// identities already in it are limited, and waits out Retry-After only
// when the whole pool is: a key that answered 429 is not sent to again
// before its wait, and a deployment with a generous limit costs one
// identity as before.

// maxSpread bounds the identities the property registers to spread its
// packages: six keep each under a hundred of a default run's packages,
// below the reference's burst, so a deployment limiting as the reference
// does costs no wait at all.
const maxSpread = 6

// spreadPool is the property's identities, shared by its checks.
type spreadPool struct {
	mu     sync.Mutex
	agents []*agent
	next   int
}

// current is the identity the next package goes out as.
func (p *spreadPool) current() *agent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.agents[p.next]
}

// rotate moves to the next identity, registering one with w while the pool
// is smaller than maxSpread; it reports false once tried identities in a
// row, as many as the full pool holds, were all rate-limited.
func (p *spreadPool) rotate(ctx context.Context, w *world, tried int) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if tried >= maxSpread {
		return false, nil
	}
	if len(p.agents) < maxSpread {
		a, err := w.register(ctx, "prop")
		if err != nil {
			return false, err
		}
		p.agents = append(p.agents, a)
		p.next = len(p.agents) - 1
		return true, nil
	}
	p.next = (p.next + 1) % len(p.agents)
	return true, nil
}

// publishSpread publishes body under key as the pool's current identity,
// moving to another one on a 429, and waiting out Retry-After (publish)
// only when every identity of the full pool was limited.
func (m *machine) publishSpread(ctx context.Context, key string, body pkg) (*driver.Response, error) {
	for tried := 1; ; tried++ {
		resp, err := m.w.do(ctx, m.pool.current(), driver.Request{Method: http.MethodPost, Path: "/api/levels", JSON: body,
			Header: map[string]string{"Idempotency-Key": key}, Allow: []int{http.StatusTooManyRequests}})
		if err != nil || resp.Status != http.StatusTooManyRequests {
			return resp, err
		}
		moved, err := m.pool.rotate(ctx, m.w, tried)
		if err != nil {
			return nil, err
		}
		if !moved {
			return m.w.publish(ctx, m.pool.current(), key, body)
		}
	}
}
