package phantompress

import (
	"time"
)

// resetAfter makes the scenario move the embedded clock past 00:00 JST when
// it ends, so a quota it spent never leaks into later scenarios.
func (w *world) resetAfter() {
	w.Cleanup(func() { w.newDay() })
}

// newDay moves the embedded clock past 00:00 JST and zeroes the pool's
// counters: every daily quota starts afresh.
func (w *world) newDay() {
	advanceToReset(w.env.Clock)
	p := poolOf(w.env)
	p.mu.Lock()
	p.writes, p.regs = 0, 0
	if p.cur != nil {
		p.cur.runs, p.cur.writes = 0, 0
	}
	p.mu.Unlock()
}

// freshDay starts a new quota day on the embedded reference so a scenario
// knows every counter exactly, and starts another one when it ends.
func (w *world) freshDay() (controller, error) {
	c, err := w.control()
	if err != nil {
		return nil, err
	}
	w.newDay()
	w.resetAfter()
	return c, nil
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
