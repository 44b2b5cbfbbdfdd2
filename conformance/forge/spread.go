package forge

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// The DSL differential property publishes some six hundred packages, all
// rejected, as one identity. Against a live deployment a per-key rate limit
// (FORGE-RATE-LIMIT; the reference allows bursts of 120) then answered 429
// with Retry-After: 1 every hundred packages, and the run spent eight
// seconds of its nine waiting, where the embedded run, whose clock moves
// only when the run waits, spent none. A rate-limited publish now moves to
// another identity of a small pool instead, registered only when every
// identity already in it is limited; the property waits only when the
// whole pool is, and never sends as a key before the end of the wait its
// 429 asked for. A deployment with a generous limit costs one identity,
// as before.

// maxSpread bounds the identities the property registers to spread its
// packages: six keep each under a hundred of a default run's packages,
// below the reference's burst, so a deployment limiting as the reference
// does costs no wait at all.
const maxSpread = 6

// maxSpreadSends bounds the sends of one package: every identity once,
// then a few waits for Retry-After; a target still limiting then is busy,
// which no rule judges.
const maxSpreadSends = maxSpread + 5

// spreadPool is the property's identities, shared by its checks, with
// the time until which each one's last 429 asked it to wait.
type spreadPool struct {
	mu      sync.Mutex
	agents  []*agent
	next    int
	limited map[*agent]time.Time
}

// current is the identity the next package goes out as.
func (p *spreadPool) current() *agent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.agents[p.next]
}

// pick returns the first identity, from the current one on, that is not
// waiting at now; else a new one registered with w while the pool is
// smaller than maxSpread; else the one free soonest and how long to wait
// for it.
func (p *spreadPool) pick(ctx context.Context, w *world, now time.Time) (*agent, time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.agents {
		at := (p.next + i) % len(p.agents)
		if !p.limited[p.agents[at]].After(now) {
			p.next = at
			return p.agents[at], 0, nil
		}
	}
	if len(p.agents) < maxSpread {
		a, err := w.register(ctx, "prop")
		if err != nil {
			return nil, 0, err
		}
		p.agents = append(p.agents, a)
		p.next = len(p.agents) - 1
		return a, 0, nil
	}
	soonest := 0
	for i, a := range p.agents {
		if p.limited[a].Before(p.limited[p.agents[soonest]]) {
			soonest = i
		}
	}
	p.next = soonest
	return p.agents[soonest], p.limited[p.agents[soonest]].Sub(now), nil
}

// limit records that a answered 429 asking to wait until until.
func (p *spreadPool) limit(a *agent, until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.limited == nil {
		p.limited = map[*agent]time.Time{}
	}
	p.limited[a] = until
}

// now is the time on the target's clock: the embedded reference's when the
// run holds it, the wall clock against a live target.
func (m *machine) now() time.Time {
	if m.w.env.Clock != nil {
		return m.w.env.Clock.Now()
	}
	return time.Now()
}

// publishSpread publishes body under key (a rate-limited package was not
// judged, so sending it again under the same key is safe) as an identity
// of the pool that is not rate-limited, waiting out Retry-After only when
// every identity of the full pool is.
func (m *machine) publishSpread(ctx context.Context, key string, body pkg) (*driver.Response, error) {
	for range maxSpreadSends {
		a, wait, err := m.pool.pick(ctx, m.w, m.now())
		if err != nil {
			return nil, err
		}
		if wait > 0 {
			if err := m.w.env.Wait(ctx, wait); err != nil {
				return nil, verdict.Errorf("waiting for Retry-After: %v", err)
			}
		}
		resp, err := m.w.do(ctx, a, driver.Request{Method: http.MethodPost, Path: "/api/levels", JSON: body,
			Header: map[string]string{"Idempotency-Key": key}, Allow: []int{http.StatusTooManyRequests}})
		if err != nil || resp.Status != http.StatusTooManyRequests {
			return resp, err
		}
		m.pool.limit(a, m.now().Add(retryAfter(resp)))
	}
	return nil, verdict.Errorf("POST /api/levels still answers 429 after %d sends across %d identities", maxSpreadSends, maxSpread)
}
