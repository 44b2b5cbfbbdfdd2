package phantompress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// machine plays random legal and illegal actions on one run of the target
// while the observation-synced model predicts each outcome. Its first
// action starts the run with a custom seed drawn by rapid, so a replayed or
// shrunk sequence meets the same cases again (seeded runs are allowed; they
// only stay off the leaderboard).
type machine struct {
	w    *world
	idle bool // the live run allowance is spent: apply nothing
}

// step is the JSON form of one drawn action.
type step struct {
	Action string `json:"action"`
	Arg    string `json:"arg,omitempty"`
}

// actStart is the machine's own first action: start a run with seed Arg.
const actStart = "start"

// newMachine prepares a check. On a live target the checks and their
// shrinking may start at most livePropertyRuns runs: past that, a check
// that has not failed yet skips, and one that has is left as it stands (an
// idle machine applies nothing, so rapid keeps the failure found so far).
func newMachine(ctx context.Context, env *suite.Env) (suite.Machine, error) {
	w := newWorld(env)
	if env.Live() {
		p := poolOf(env)
		p.mu.Lock()
		why := p.spent(env)
		if why == "" && p.propRuns >= livePropertyRuns {
			why = fmt.Sprintf("the property has started its allowance of %d runs on a live target", livePropertyRuns)
		}
		started, failed := p.propRuns > 0, p.propFailed
		if why == "" {
			p.propRuns++
		}
		p.mu.Unlock()
		switch {
		case why != "" && failed:
			return &machine{w: w, idle: true}, nil
		case why != "" && !started:
			return nil, verdict.Skipf("the property never started: %s", why)
		case why != "":
			return nil, verdict.Skipf("%s", why)
		}
	}
	return &machine{w: w}, nil
}

// Draw picks an action: mostly legal moves of the current situation, with
// malformed and out-of-place ones mixed in.
func (m *machine) Draw(t *rapid.T) suite.Action {
	if m.w.m == nil && !m.idle {
		raw, _ := json.Marshal(step{Action: actStart, Arg: fmt.Sprintf("pp-property-%d", rapid.IntRange(0, 1<<16).Draw(t, "seed"))})
		return raw
	}
	if m.w.m == nil {
		raw, _ := json.Marshal(step{Action: engine.ActStatus})
		return raw
	}
	docs, srcs, qs := caseIDs(m.w.m.State.Case)
	var st step
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0:
		st = step{Action: engine.ActLook}
	case 1, 2:
		st = step{Action: engine.ActRead, Arg: rapid.SampledFrom(docs).Draw(t, "doc")}
	case 3:
		st = step{Action: engine.ActInterview, Arg: strings.Replace(rapid.SampledFrom(srcs).Draw(t, "topic"), ":", " ", 1)}
	case 4, 5, 6:
		st = step{Action: engine.ActAnswer, Arg: drawAnswer(t, qs, append(docs, srcs...))}
	case 7:
		st = step{Action: engine.ActPublish}
	case 8:
		st = step{Action: engine.ActStatus}
	default:
		st = step{Action: engine.ActComment, Arg: strings.Repeat("記", rapid.SampledFrom([]int{0, 1, 500, 501}).Draw(t, "len"))}
	}
	raw, _ := json.Marshal(st)
	return raw
}

// caseIDs lists the case's document IDs, interview sources and question
// IDs, each with one ID the case does not have, for Draw to sample from.
func caseIDs(c engine.CaseView) (docs, srcs, qs []string) {
	for _, d := range c.Documents {
		docs = append(docs, d.ID)
	}
	for _, w := range c.Witnesses {
		for _, tp := range w.Topics {
			srcs = append(srcs, tp.Source)
		}
	}
	for _, q := range c.Questions {
		qs = append(qs, q.ID)
	}
	return append(docs, "d99"), append(srcs, "w9:t9"), append(qs, "q99")
}

// drawAnswer draws a well- or ill-formed answer argument.
func drawAnswer(t *rapid.T, qs, srcs []string) string {
	q := rapid.SampledFrom(qs).Draw(t, "q")
	v := rapid.SampledFrom([]string{"真", "偽", "裏取り不能", "true", "false", "unverifiable", "多分"}).Draw(t, "verdict")
	c := rapid.SampledFrom([]string{"断言", "留保", "assert", "hedge", ""}).Draw(t, "confidence")
	n := rapid.IntRange(0, 2).Draw(t, "nsrc")
	var cited []string
	for i := 0; i < n; i++ {
		cited = append(cited, rapid.SampledFrom(srcs).Draw(t, "src"))
	}
	sep := rapid.SampledFrom([]string{" ", ",", ", "}).Draw(t, "sep")
	return strings.TrimSpace(fmt.Sprintf("%s %s %s %s", q, v, c, strings.Join(cited, sep)))
}

// Apply performs a on the target and checks it against the model.
func (m *machine) Apply(ctx context.Context, a suite.Action) error {
	var st step
	if err := json.Unmarshal(a, &st); err != nil {
		return verdict.Errorf("bad action %s: %v", a, err)
	}
	if m.idle {
		return nil
	}
	if st.Action == actStart {
		seed := st.Arg
		return m.w.startRun(ctx, 40, &seed)
	}
	if m.w.m == nil {
		return nil // a sequence whose start was shrunk away
	}
	if err := m.w.act(ctx, st.Action, st.Arg); err != nil {
		var f *verdict.Failure
		if errors.As(err, &f) {
			p := poolOf(m.w.env)
			p.mu.Lock()
			p.propFailed = true
			p.mu.Unlock()
		}
		return err
	}
	return nil
}
