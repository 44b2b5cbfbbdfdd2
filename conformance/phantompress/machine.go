package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// machine plays random legal and illegal actions on one run of the target
// while the observation-synced model predicts each outcome.
type machine struct {
	w *world
}

// step is the JSON form of one drawn action.
type step struct {
	Action string `json:"action"`
	Arg    string `json:"arg,omitempty"`
}

// newMachine starts a run with a small budget so budget exhaustion is
// reached as well.
func newMachine(ctx context.Context, env *suite.Env) (suite.Machine, error) {
	w := newWorld(env)
	if err := w.startRun(ctx, 40, nil); err != nil {
		return nil, err
	}
	return &machine{w: w}, nil
}

// Draw picks an action: mostly legal moves of the current situation, with
// malformed and out-of-place ones mixed in.
func (m *machine) Draw(t *rapid.T) suite.Action {
	s := m.w.m.State
	var docs, srcs, qs []string
	for _, d := range s.Case.Documents {
		docs = append(docs, d.ID)
	}
	for _, w := range s.Case.Witnesses {
		for _, tp := range w.Topics {
			srcs = append(srcs, tp.Source)
		}
	}
	for _, q := range s.Case.Questions {
		qs = append(qs, q.ID)
	}
	docs = append(docs, "d99")
	srcs = append(srcs, "w9:t9")
	qs = append(qs, "q99")
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
	return m.w.act(ctx, st.Action, st.Arg)
}
