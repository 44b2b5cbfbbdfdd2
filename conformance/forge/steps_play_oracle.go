package forge

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// playOracleSteps registers the steps of play.feature's rule on the
// oracle's determinism.
func (w *world) playOracleSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent asks the same legal probe twice$`), w.probeTwice)
	sc.Step(pattern(`^both answers are the same$`), w.sameAnswers)
}

func (w *world) probeTwice(ctx context.Context) error {
	probe := w.distinctProbe()
	for range 2 {
		resp, err := w.query(ctx, w.me, w.sess, probe)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

// sameAnswers compares the two answers' outputs by value
// (FORGE-ORACLE-DETERMINISTIC); a refused probe is FORGE-QUERY's.
func (w *world) sameAnswers() error {
	var outs [2]struct {
		Output json.RawMessage `json:"output"`
	}
	for i, r := range w.answers[:2] {
		if r.Status != http.StatusOK {
			return verdict.Failf("FORGE-QUERY", "a legal distinct probe answered", r.Status, "%s", w.env.HTTP.Secrets().Clip(r.Body))
		}
		if err := r.Decode("FORGE-QUERY", &outs[i]); err != nil {
			return err
		}
	}
	if !sameOutput(outs[0].Output, outs[1].Output) {
		return verdict.Failf("FORGE-ORACLE-DETERMINISTIC", string(outs[0].Output), string(outs[1].Output), "the same probe asked twice in one session")
	}
	return nil
}

// querySpaced asks the probe in as JSON written with a space after every
// comma: the same value in other text, so a deployment comparing a probe
// with the challenge inputs by their text (compact or spaced, whichever
// it stored) answers one of the two forms (FORGE-PROBE-DISTINCT;
// docs/detection.md, forge round 6).
func (w *world) querySpaced(ctx context.Context, in []int64) (*driver.Response, error) {
	vals := make([]string, len(in))
	for i, v := range in {
		vals[i] = strconv.FormatInt(v, 10)
	}
	raw := `{"input": [` + strings.Join(vals, ", ") + `]}`
	return w.do(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/sessions/" + w.sess.SessionID + "/query",
		Raw: []byte(raw), Header: map[string]string{"Content-Type": "application/json"}})
}

// widest is the longest of inputs (the first of them on a tie): a list
// of one value reads the same with or without spaces.
func widest(inputs [][]int64) []int64 {
	best := inputs[0]
	for _, in := range inputs[1:] {
		if len(in) > len(best) {
			best = in
		}
	}
	return best
}

func (w *world) probeChallenge(ctx context.Context) error {
	if len(w.sess.ChallengeInputs) == 0 {
		return verdict.Failf("FORGE-SESSION-CURRENT", "challenge inputs", "none", "the session has no challengeInputs")
	}
	probes := [][]int64{w.sess.ChallengeInputs[0], w.distinctProbe()}
	if in := permutedChallenge(w.sess.ChallengeInputs); in != nil {
		probes = append(probes, in)
	}
	for i, in := range probes {
		resp, err := w.query(ctx, w.me, w.sess, in)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
		if i == 0 {
			if resp, err = w.querySpaced(ctx, widest(w.sess.ChallengeInputs)); err != nil {
				return err
			}
			w.answers = append(w.answers, resp)
		}
	}
	return w.probeExamples(ctx, w.sess.QueryBudget-len(probes)-1)
}

// probeExamples asks the oracle for the inputs of the level's public
// examples that are no challenge input, at most room of them: each answer
// is the example's output, since an example is the oracle's own
// (FORGE-VALID-EXAMPLES), so a deployment answering a legal probe with
// anything but the oracle's output is seen (FORGE-QUERY; docs/detection.md,
// forge round 7: an answer cache keyed on the probe's length, which only
// the status was checked against).
func (w *world) probeExamples(ctx context.Context, room int) error {
	w.exampleAnswers = nil
	for _, ex := range w.sess.Level.Examples {
		if len(w.exampleAnswers) >= room || slices.ContainsFunc(w.sess.ChallengeInputs, func(c []int64) bool { return slices.Equal(c, ex.Input) }) {
			continue
		}
		resp, err := w.query(ctx, w.me, w.sess, ex.Input)
		if err != nil {
			return err
		}
		w.exampleAnswers = append(w.exampleAnswers, exampleAnswer{ex, resp})
	}
	return nil
}

// exampleAnswer is the oracle's answer to a public example's input.
type exampleAnswer struct {
	ex   authoring.Example
	resp *driver.Response
}

// examplesJudged fails FORGE-QUERY when an example's input was refused or
// answered with other than the example's output; an output neither side
// parses is compared as canonical JSON.
func (w *world) examplesJudged() error {
	for _, a := range w.exampleAnswers {
		if a.resp.Status != http.StatusOK {
			return verdict.Failf("FORGE-QUERY", "a public example's input answered", a.resp.Status, "%s", w.env.HTTP.Secrets().Clip(a.resp.Body))
		}
		var out struct {
			Output json.RawMessage `json:"output"`
		}
		if err := a.resp.Decode("FORGE-QUERY", &out); err != nil {
			return err
		}
		if !sameOutput(out.Output, a.ex.Output) {
			return verdict.Failf("FORGE-QUERY", string(a.ex.Output), string(out.Output), "the oracle's answer to the public example input %v", a.ex.Input)
		}
	}
	return nil
}

// sameOutput compares two outputs by value, or as canonical JSON where
// either does not parse as an output.
func sameOutput(x, y json.RawMessage) bool {
	a, okA := solver.ParseOutput(x)
	b, okB := solver.ParseOutput(y)
	if okA && okB {
		return solver.Equal(a, b)
	}
	ca, _ := canonical(x)
	cb, _ := canonical(y)
	return ca == cb
}

func (w *world) probesJudged() error {
	for _, r := range w.answers[:2] {
		if r.Status/100 != 4 {
			return verdict.Failf("FORGE-PROBE-DISTINCT", "a probe equal to a challenge input refused", r.Status, "%s", w.env.HTTP.Secrets().Clip(r.Body))
		}
	}
	for _, r := range w.answers[2:] {
		if r.Status != http.StatusOK {
			return verdict.Failf("FORGE-QUERY", "a legal distinct probe answered", r.Status, "%s", w.env.HTTP.Secrets().Clip(r.Body))
		}
	}
	return w.examplesJudged()
}
