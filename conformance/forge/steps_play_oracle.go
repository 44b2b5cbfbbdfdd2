package forge

import (
	"context"
	"encoding/json"
	"net/http"

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
