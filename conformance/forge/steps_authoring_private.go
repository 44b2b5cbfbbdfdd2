package forge

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// authoringPrivateSteps registers the steps of authoring.feature's rule on
// the authored level's private values.
func (w *world) authoringPrivateSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^another agent plays up to the authored level, probes it, answers it wrongly once and then solves it$`), w.peerMeetsAuthored)
	sc.Step(pattern(`^no answer of the scenario carries the level's oracle, hidden inputs or expected outputs$`), w.privateValuesJudged)
	sc.Step(pattern(`^the chain summary carries no content of a level the runner saw$`), w.chainContentJudged)
}

// peerMeetsAuthored has a fresh agent clear every level before the
// authored one (each level's public view is kept), open a session on it,
// probe it once, submit wrong outputs, then open another session and
// submit the oracle's outputs; every answer is kept for the search.
func (w *world) peerMeetsAuthored(ctx context.Context) error {
	peer, err := w.register(ctx, "reader")
	if err != nil {
		return err
	}
	w.other = peer
	p, err := w.progress(ctx, peer)
	if err != nil {
		return err
	}
	for n := 0; p.CurrentLevel != nil && p.CurrentLevel.Position < w.authored.position; n++ {
		if w.env.Live() && n >= liveLevelCap {
			return verdict.Skipf("the authored level lies beyond the %d levels a live run solves", liveLevelCap)
		}
		s, d, err := w.clear(ctx, peer, 0)
		if err != nil {
			return err
		}
		w.seen = append(w.seen, *s.Level)
		p = d.Progress
	}
	if p.CurrentLevel == nil || p.CurrentLevel.Position != w.authored.position {
		return verdict.Skipf("the reader's progress did not reach the authored level at position %d", w.authored.position)
	}
	return w.playAuthored(ctx, peer)
}

// playAuthored plays the authored level as peer: a probe, a wrong answer,
// a new session and the right one.
func (w *world) playAuthored(ctx context.Context, peer *agent) error {
	oracle, err := w.authoredOracle()
	if err != nil {
		return err
	}
	w.mark = len(w.bodies)
	s, err := w.mustOpen(ctx, peer)
	if err != nil {
		return err
	}
	w.sess = s
	w.seen = append(w.seen, *s.Level)
	probe := w.distinctProbe()
	w.legit = append(w.legit, dsl.Value{Type: dsl.TList, List: probe})
	if out, ok := run(oracle, probe); ok {
		w.legit = append(w.legit, out)
	}
	if _, err := w.query(ctx, peer, s, probe); err != nil {
		return err
	}
	w.challenges = append(w.challenges, s.ChallengeInputs...)
	if _, _, err := w.submit(ctx, peer, s, w.wrongOutputs()); err != nil {
		return err
	}
	s2, err := w.mustOpen(ctx, peer)
	if err != nil {
		return err
	}
	w.challenges = append(w.challenges, s2.ChallengeInputs...)
	outs := make([]dsl.Value, len(s2.ChallengeInputs))
	for i, in := range s2.ChallengeInputs {
		outs[i], _ = run(oracle, in)
	}
	_, _, err = w.submit(ctx, peer, s2, outs)
	for _, a := range []*agent{peer, w.me} {
		for _, path := range []string{"/api/progress", "/api/agent"} {
			if _, err := w.do(ctx, a, driver.Request{Method: http.MethodGet, Path: path}); err != nil {
				return err
			}
		}
	}
	return err
}

// authoredOracle decodes the authored package's oracle.
func (w *world) authoredOracle() (dsl.Program, error) {
	var p dsl.Program
	raw, err := json.Marshal(w.authored.body["private"].(map[string]any)["oracle"])
	if err == nil {
		err = json.Unmarshal(raw, &p)
	}
	if err != nil {
		return p, verdict.Errorf("the runner's own oracle does not decode: %v", err)
	}
	return p, nil
}

// packageParts reads the authored package's inputs back through JSON: the
// body may be a clone, whose values are plain JSON.
func (w *world) packageParts() authoring.Package {
	var p authoring.Package
	raw, _ := json.Marshal(w.authored.body)
	_ = json.Unmarshal(raw, &p)
	return p
}

func run(p dsl.Program, in []int64) (dsl.Value, bool) {
	v, err := dsl.Eval(p, in)
	return v, err == nil
}

// privateSecrets are the authored level's private values: its oracle (the
// program and its steps), its hidden inputs and its validation notes.
func (w *world) privateSecrets() (*secrets, error) {
	oracle, err := w.authoredOracle()
	if err != nil {
		return nil, err
	}
	s := &secrets{}
	s.addValue("the level's oracle", oracle)
	s.addValue("the level's oracle steps", oracle.Steps)
	w.stepSecrets(s, oracle)
	for _, h := range w.packageParts().Private.HiddenInputs {
		s.addList("a hidden input", h)
	}
	w.hiddenOutputSecrets(s, oracle)
	if v, ok := w.authored.body["private"].(map[string]any)["validation"].(map[string]any); ok {
		notes, _ := v["notes"].(string)
		s.addText("the level's validation notes", notes)
	}
	return s, nil
}

// stepSecrets adds each step of the oracle that carries a parameter (an
// op and its fn, arg or size): one step of the program is a part of the
// private oracle, and a hint giving it passed the search for the whole
// (FORGE-PRIVATE-SERVER-ONLY; docs/detection.md, forge round 8). A bare
// {"op": "sort"} is left out: a document's example may spell one.
func (w *world) stepSecrets(s *secrets, oracle dsl.Program) {
	for i, st := range oracle.Steps {
		c, ok := canonical(st)
		var fields map[string]any
		if ok && json.Unmarshal([]byte(c), &fields) == nil && len(fields) >= 2 {
			s.addValue("step "+itoa(i+1)+" of the level's oracle", st)
		}
	}
}

// hiddenOutputSecrets adds the oracle's output on each hidden input: the
// result of the validation run, validation material the seed keeps
// server-side (FORGE-PRIVATE-SERVER-ONLY; docs/detection.md, forge round
// 8). An output of fewer than two values, or one the scenario was shown
// (shownSecretValues), says nothing and is left out.
func (w *world) hiddenOutputSecrets(s *secrets, oracle dsl.Program) {
	shown := w.shownSecretValues(oracle)
	for _, h := range w.packageParts().Private.HiddenInputs {
		out, ok := run(oracle, h)
		if ok && out.Type == dsl.TList && len(out.List) >= 2 && !shownValue(shown, out) {
			s.addList("the oracle's output on hidden input "+compactInts(h), out.List)
		}
	}
}

// shownSecretValues are the lists the scenario's answers show on purpose:
// its probes and their answers, the examples' inputs and outputs, the
// challenge inputs.
func (w *world) shownSecretValues(oracle dsl.Program) []dsl.Value {
	shown := append([]dsl.Value(nil), w.legit...)
	for _, e := range w.packageParts().Public.Examples {
		shown = append(shown, dsl.Value{Type: dsl.TList, List: e.Input})
		if v, ok := run(oracle, e.Input); ok {
			shown = append(shown, v)
		}
	}
	for _, in := range w.challenges {
		shown = append(shown, dsl.Value{Type: dsl.TList, List: in})
	}
	return shown
}

// expectedSecrets adds the expected outputs of the challenge inputs the
// authored level's sessions asked for. An output of fewer than two values,
// or one the answers show anyway as another list (an example's input or
// output, a challenge input, a probe or its answer), says nothing and is
// left out. They are searched only in the answers from the first session
// on: another level's probe may answer the same list for its own reasons.
func (w *world) expectedSecrets(s *secrets) {
	oracle, _ := w.authoredOracle()
	shown := w.shownSecretValues(oracle)
	for _, in := range w.challenges {
		out, ok := run(oracle, in)
		if !ok || out.Type != dsl.TList || len(out.List) < 2 || shownValue(shown, out) {
			continue
		}
		s.addList("the expected output of challenge input "+compactInts(in), out.List)
	}
}

func shownValue(vs []dsl.Value, v dsl.Value) bool {
	for _, x := range vs {
		if solver.Equal(x, v) {
			return true
		}
	}
	return false
}

// privateValuesJudged searches every answer the scenario got, and the
// authored level's publication, for the level's private values by value
// (FORGE-PRIVATE-SERVER-ONLY).
func (w *world) privateValuesJudged() error {
	s, err := w.privateSecrets()
	if err != nil {
		return err
	}
	if err := w.searchBodies(s, append([][]byte{w.authored.pubBody}, w.bodies[:w.mark]...)); err != nil {
		return err
	}
	w.expectedSecrets(s)
	return w.searchBodies(s, w.bodies[w.mark:])
}

func (w *world) searchBodies(s *secrets, bodies [][]byte) error {
	for _, b := range bodies {
		if what := s.find(b); what != "" {
			return verdict.Failf("FORGE-PRIVATE-SERVER-ONLY", "no private value in any answer", what,
				"an answer carries %s, found by value: %s", what, w.env.HTTP.Secrets().Clip(b))
		}
	}
	return nil
}

// chainContentJudged reads GET /api/chain and searches it for every level
// the runner saw (title, rules, id, example inputs) and for the authored
// level's private values (FORGE-CHAIN-SUMMARY).
func (w *world) chainContentJudged(ctx context.Context) error {
	s, err := w.privateSecrets()
	if err != nil {
		return err
	}
	for _, l := range w.seen {
		at := " of position " + itoa(l.Position)
		s.addText("the title"+at, l.Title)
		s.addText("the rules"+at, l.Rules)
		if r := []rune(l.Rules); len(r) > rulesLead {
			s.addText("the opening of the rules"+at, string(r[:rulesLead]))
		}
		s.addText("the level id"+at, l.LevelID)
		for _, e := range l.Examples {
			if len(e.Input) > 1 {
				s.addList("an example input"+at, e.Input)
			}
			exampleOutputSecret(s, "an example output"+at, e.Output)
		}
	}
	resp, err := w.get(ctx, nil, "/api/chain", "FORGE-CHAIN-SUMMARY", nil)
	if err != nil {
		return err
	}
	if what := s.find(resp.Body); what != "" {
		return verdict.Failf("FORGE-CHAIN-SUMMARY", "a summary only", what, "GET /api/chain carries %s: %s", what, w.env.HTTP.Secrets().Clip(resp.Body))
	}
	return nil
}

// rulesLead is how much of a level's rules the chain summary is searched
// for: a teaser cutting the rules short is level content all the same
// (FORGE-CHAIN-SUMMARY; docs/detection.md, forge round 8).
const rulesLead = 32

// exampleOutputSecret adds an example's output of two values or more (a
// list, or rle's pairs): a summary previewing a level's outputs carries
// its content as much as one previewing its inputs (FORGE-CHAIN-SUMMARY;
// docs/detection.md, forge round 8). An output of one or two values may
// be a count or a pair of positions by chance, and is left out.
func exampleOutputSecret(s *secrets, what string, raw json.RawMessage) {
	var l []any
	if json.Unmarshal(raw, &l) != nil || len(l) < 3 {
		return
	}
	var ints []int64
	if json.Unmarshal(raw, &ints) == nil {
		s.addList(what, ints)
		return
	}
	s.addValue(what, l)
}
