package forge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/server"
)

// SolveOptions configure `conformance solve forge`.
type SolveOptions struct {
	Target    string
	APIKey    string // an existing practice key; empty registers a new agent
	MaxLevels int    // 0: until the frontier
	Rate      float64
	Timeout   time.Duration
	Seed      uint64
	Out       io.Writer
}

// SolveReport is what a solve did.
type SolveReport struct {
	Cleared    []int // positions cleared, in order
	Queries    []int // probes spent on each
	AtFrontier bool
	Stopped    string // why the solver stopped before the frontier, if it did
	Wrong      bool   // a submission was judged wrong
}

// SolveChain plays the chain of a deployment as an agent would: it reads
// progress, opens a session with {}, probes legal inputs distinct from the
// challenge inputs, infers the rule by enumerative search over DSL
// pipelines, submits once and continues until atFrontier. A level outside
// the DSL stops it without counting as a failure.
func SolveChain(ctx context.Context, o SolveOptions) (*SolveReport, error) {
	base, err := suite.ResolveBase(o.Target, server.BasePath)
	if err != nil {
		return nil, err
	}
	secrets := &driver.Secrets{}
	drv := driver.NewHTTP(driver.HTTPOptions{BaseURL: base, Limiter: driver.NewLimiter(o.Rate), Budget: driver.NewBudget(0),
		Secrets: secrets, Timeout: o.Timeout, Breaker: &driver.Breaker{}})
	c := &client{env: &suite.Env{HTTP: drv, Seed: o.Seed, Shared: &suite.Shared{}}}
	me := &agent{Key: o.APIKey}
	if o.APIKey == "" {
		if me, err = c.register(ctx, "solver"); err != nil {
			return nil, err
		}
		fmt.Fprintf(o.Out, "registered practice agent %s (its key is kept secret)\n", me.Name)
	} else {
		secrets.Add(o.APIKey)
	}
	rep := &SolveReport{}
	for o.MaxLevels == 0 || len(rep.Cleared) < o.MaxLevels {
		p, err := c.progress(ctx, me)
		if err != nil {
			return rep, err
		}
		if p.frontier() || p.CurrentLevel == nil {
			rep.AtFrontier = true
			fmt.Fprintf(o.Out, "at the frontier: chain progress %d (%d cleared, %d skipped)\n", p.progress(), deref(p.ClearedLevels), deref(p.SkippedLevels))
			return rep, nil
		}
		if done, err := solveOne(ctx, c, me, rep, o.Out); done || err != nil {
			return rep, err
		}
	}
	rep.Stopped = fmt.Sprintf("stopped after %d levels (--levels)", o.MaxLevels)
	return rep, nil
}

// solveOne clears the current level; done reports that the solver stopped.
func solveOne(ctx context.Context, c *client, me *agent, rep *SolveReport, out io.Writer) (bool, error) {
	s, err := c.mustOpen(ctx, me)
	if err != nil {
		return true, err
	}
	outs, st, err := c.infer(ctx, me, s, 0)
	var skip *verdict.Skipped
	if errors.As(err, &skip) {
		rep.Stopped = skip.Reason
		fmt.Fprintf(out, "position %d: %s; stopping (not a failure)\n", s.Position, skip.Reason)
		return true, nil
	}
	if err != nil {
		return true, err
	}
	_, d, err := c.submit(ctx, me, s, outs)
	if err != nil {
		return true, err
	}
	if d == nil || d.Correct == nil || !*d.Correct {
		rep.Wrong = true
		fmt.Fprintf(out, "position %d: the inferred outputs were judged wrong; stopping\n", s.Position)
		return true, nil
	}
	rep.Cleared = append(rep.Cleared, s.Position)
	rep.Queries = append(rep.Queries, st.Queries)
	fmt.Fprintf(out, "position %d %q: cleared with %d probes (%d programs tried)\n", s.Position, s.Level.Title, st.Queries, st.Tried)
	return false, nil
}
