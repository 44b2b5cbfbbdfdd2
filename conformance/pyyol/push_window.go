package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// The timestamp window's width, measured: the docs fix a ±300 s window
// around the agent's own clock, whose offset from the runner's the runner
// cannot know. So the runner finds both edges of what the agent accepts,
// relative to its own clock, and judges their distance, which no clock
// offset changes. Timestamps carry whole seconds while clocks do not, so
// a conforming agent measures 598 to 601 s (599 for one comparing exact
// times, 600 for one comparing whole seconds, one more or less when a
// probe straddles a second); judgeWindow holds it to that when every
// probe was quick, and leaves one more second either way when one was
// slow, so that no runner's timing ever is a finding.
const (
	windowHalf  = 300              // PYYOL-SIGN-SKEW-WINDOW: "±300s"
	narrowest   = 2*windowHalf - 3 // a narrower window refuses inside ±300 s
	widest      = 2*windowHalf + 2 // a wider one accepts outside it
	windowReach = 3 * windowHalf   // how far from the runner's clock a probe goes
	bisectSteps = 11               // ceil(log2(windowReach)) + 1
)

// windowEdges finds, by bisection over whole seconds, the oldest and the
// newest timestamp (as seconds before the runner's clock; negative is
// ahead) that the agent accepts. A timestamp as old as the runner's clock
// must be accepted to begin with.
func (p *pushRun) windowEdges(ctx context.Context) (oldest, newest int, err error) {
	ok, err := p.acceptsAge(ctx, 0)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, verdict.Failf("PYYOL-SIGN-SKEW-WINDOW", "a timestamp of now accepted", string(p.Last.Body),
			"the agent refuses a request signed with the runner's own clock")
	}
	if oldest, err = p.edge(ctx, 0, windowReach); err != nil {
		return 0, 0, err
	}
	newest, err = p.edge(ctx, 0, -windowReach)
	return oldest, newest, err
}

// edge bisects between an accepted age in and a far age out for the last
// accepted one. If even out is accepted, out is returned: the window is
// at least that wide on that side.
func (p *pushRun) edge(ctx context.Context, in, out int) (int, error) {
	ok, err := p.acceptsAge(ctx, out)
	if err != nil || ok {
		return out, err
	}
	for step := 0; step < bisectSteps && abs(out-in) > 1; step++ {
		mid := in + (out-in)/2
		ok, err := p.acceptsAge(ctx, mid)
		if err != nil {
			return 0, err
		}
		if ok {
			in = mid
		} else {
			out = mid
		}
	}
	if abs(out-in) > 1 {
		return in, nil
	}
	return p.confirmEdge(ctx, in, out)
}

// confirmEdge asks again at the edge bisection found, where a probe that
// straddled a second of the agent's clock misled it. The agent's clock
// only moves on while a probe travels, so a probe looks older to it than
// it was signed, never younger: on the past side (out > in) a refusal may
// be the straddle's and an acceptance is the window's, on the future side
// (out < in) an acceptance may be the straddle's and a refusal is the
// window's. So out is asked again on the past side and in on the future
// side, confirmProbes times each, and every answer that is certain moves
// the edge.
func (p *pushRun) confirmEdge(ctx context.Context, in, out int) (int, error) {
	past := out > in
	for range 2 * confirmProbes {
		probe := in
		if past {
			probe = out
		}
		moved := false
		for range confirmProbes {
			ok, err := p.acceptsAge(ctx, probe)
			if err != nil {
				return 0, err
			}
			if ok == past { // an acceptance past, a refusal ahead: certain
				moved = true
				break
			}
		}
		if !moved {
			return in, nil
		}
		step := out - in // +1 past, -1 ahead
		if past {
			in, out = out, out+step
		} else {
			in, out = in-step, in
		}
	}
	return in, nil
}

// acceptsAge signs a request whose timestamp is age seconds before the
// runner's clock (whole seconds, as the header carries it) and reports
// whether the agent took it. A refusal for any reason but the timestamp
// is no answer about the window: the check cannot go on.
func (p *pushRun) acceptsAge(ctx context.Context, age int) (bool, error) {
	// A probe the agent read more than a moment after it was signed says
	// little about one second of the window: a loaded runner asks again
	// (at most slowProbes times), so the edges are measured, not the
	// runner's speed.
	for try := 1; ; try++ {
		start := time.Now()
		at := start.Truncate(time.Second).Add(-time.Duration(age) * time.Second)
		if err := p.raw(ctx, "/handshake", p.signedHeaders("/handshake", at, p.secret)); err != nil {
			return false, err
		}
		if time.Since(start) < quickProbe {
			break
		}
		if try == slowProbes {
			p.window.slow = true
			break
		}
	}
	switch p.Last.Status {
	case 200:
		return true, nil
	case 401:
		var body struct{ Reason string }
		if json.Unmarshal(p.Last.Body, &body) == nil && body.Reason == "stale_timestamp" {
			return false, nil
		}
	}
	return false, verdict.Skipf("unchecked: a request %d s off answered %d %s, not an acceptance or a stale_timestamp refusal",
		age, p.Last.Status, p.env.HTTP.Secrets().Clip(p.Last.Body))
}

// quickProbe is how soon a window probe must be answered for its answer
// to be read as the window's; slowProbes is how often a slower one is
// asked again before its answer is taken as it is.
const (
	quickProbe = 300 * time.Millisecond
	slowProbes = 10
	// confirmProbes is how often confirmEdge asks again at an edge.
	confirmProbes = 3
)

// judgeWindow compares the measured width with the docs' 600 s. When
// every probe was answered within quickProbe (slow false), a conforming
// agent measures exactly 598 to 601 s: a probe's latency moves an edge by
// at most one second, and only on one side. Then a window that refuses
// inside (299, 300] of an exact comparison (597 s) or accepts [301, 302)
// of a whole-second one (602 s) is a finding; a window one second off the
// other way (an exact ±301, a whole-second ±299) behaves as a conforming
// reading of whole-second timestamps does and is not. A slow probe leaves
// one more second either way.
func judgeWindow(oldest, newest int, slow bool) error {
	width := oldest - newest
	center := (oldest + newest) / 2
	narrow, wide := 2*windowHalf-2, 2*windowHalf+1
	if slow {
		narrow, wide = narrowest, widest
	}
	switch {
	case width < narrow:
		return verdict.Failf("PYYOL-SIGN-SKEW-WINDOW", fmt.Sprintf("a window of %d s (±%d)", 2*windowHalf, windowHalf),
			fmt.Sprintf("%d s: timestamps from %d s old to %d s ahead of the runner's clock", width, oldest, -newest),
			"the agent refuses timestamps inside ±300 s of its own clock (whose offset from the runner's is about %d s)", center)
	case width > wide:
		return verdict.Failf("PYYOL-SIGN-STALE", fmt.Sprintf("a window of %d s (±%d)", 2*windowHalf, windowHalf),
			fmt.Sprintf("%d s: timestamps from %d s old to %d s ahead of the runner's clock", width, oldest, -newest),
			"the agent accepts timestamps outside ±300 s of its own clock (whose offset from the runner's is about %d s)", center)
	}
	return nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
