package forge

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
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
	a, okA := solver.ParseOutput(outs[0].Output)
	b, okB := solver.ParseOutput(outs[1].Output)
	same := okA && okB && solver.Equal(a, b)
	if !okA || !okB {
		ca, _ := canonical(outs[0].Output)
		cb, _ := canonical(outs[1].Output)
		same = ca == cb
	}
	if !same {
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
	return nil
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
	return nil
}
