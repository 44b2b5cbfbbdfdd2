package bounty

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/spec"
)

// Steps registers every bounty step on sc for one scenario, played over
// HTTP.
func Steps(sc *godog.ScenarioContext, env *suite.Env) { steps(sc, env, false) }

// StepsOverMCP registers the same steps played through the MCP tools
// wherever a tool covers the call (--transport mcp).
func StepsOverMCP(sc *godog.ScenarioContext, env *suite.Env) { steps(sc, env, true) }

func steps(sc *godog.ScenarioContext, env *suite.Env, overMCP bool) {
	w := &world{client: &client{env: env, overMCP: overMCP, mcpAgents: map[string]bool{}}, held: map[string][]int{}, shareHex: map[int]string{}, names: map[int]string{}}
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
		for _, t := range s.Tags {
			if id := strings.TrimPrefix(t.Name, "@"); spec.IDPattern.MatchString(id) && w.rule == "" {
				w.rule = id
			}
		}
		return ctx, nil
	})
	w.registrationSteps(sc)
	w.puzzleSteps(sc)
	w.combineSteps(sc)
	w.roundSteps(sc)
	w.peerSteps(sc)
	w.policySteps(sc)
	w.profileSteps(sc)
	w.mcpSteps(sc)
	w.commonSteps(sc)
}

func (w *world) commonSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the live challenge$`), w.liveChallenge)
	sc.Step(pattern(`^a team of (\d+) agents in a fresh round$`), w.freshRound)
	sc.Step(pattern(`^(agent \d+ solves share \d+(?:, agent \d+ solves share \d+)*)$`), w.solveList)
	sc.Step(pattern(`^agent (\d+) submits a wrong solution for share (\d+)$`), w.wrongSolve)
	sc.Step(pattern(`^the answer is (\d+) with code "([^"]*)"$`), w.answerIs)
	sc.Step(pattern(`^the answer is a 4xx refusal$`), w.answer4xx)
	sc.Step(pattern(`^the answer is 200$`), w.answer200)
	sc.Step(pattern(`^(\d+) seconds pass$`), w.secondsPass)
	sc.Step(pattern(`^every response so far matched the OpenAPI document$`), w.openAPIClean)
}

// solveList solves "agent 1 solves share 2, agent 2 solves share 3".
func (w *world) solveList(ctx context.Context, text string) error {
	for _, item := range strings.Split(text, ",") {
		var i, s int
		if _, err := fmt.Sscanf(strings.TrimSpace(item), "agent %d solves share %d", &i, &s); err != nil {
			return verdict.Errorf("cannot read %q", item)
		}
		if err := w.solveShare(ctx, i, s); err != nil {
			return err
		}
	}
	return nil
}

// wrongSolve submits a well-formed wrong solution as member i.
func (w *world) wrongSolve(ctx context.Context, i, s int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.submitWrong(ctx, a, s)
}

func (w *world) submitWrong(ctx context.Context, a agent, s int) error {
	p, err := w.man.puzzleOf(s)
	if err != nil {
		return err
	}
	_, err = w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/solve", solveBody(a, s, wrongSolution(p)))
	return err
}

// wrongSolution is a well-formed solution that does not verify.
func wrongSolution(p bounty.Puzzle) bounty.Solution {
	sol := bounty.Solve(p)
	switch p.Type {
	case bounty.TypeHash:
		for n := 0; ; n++ {
			cand := bounty.Solution{NonceHex: fmt.Sprintf("%016x", n)}
			if bounty.Verify(p, cand) == bounty.ErrWrongSolution {
				return cand
			}
		}
	case bounty.TypeModular:
		x := bounty.FermatSolve(p.Params)
		mod, _ := new(big.Int).SetString(p.Params.P, 10)
		x.Add(x, big.NewInt(1))
		if mod != nil {
			x.Mod(x, mod)
		}
		return bounty.Solution{X: []byte(strconv.Quote(x.String()))}
	case bounty.TypeDecode:
		b := []byte(sol.PlaintextHex)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return bounty.Solution{PlaintextHex: string(b)}
	}
	return sol
}

// answerIs checks the last answer's status and code under the scenario's
// rule: a MUST rule fails on a mismatch, a REFERENCE rule warns.
func (w *world) answerIs(status int, code string) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	var r refusal
	_ = w.Last.Decode(w.rule, &r)
	if w.Last.Status != status || r.Code != code {
		return verdict.Failf(w.rule, fmt.Sprintf("%d %s", status, code), fmt.Sprintf("%d %s", w.Last.Status, r.Code), "%s", w.clip(w.Last.Body))
	}
	return nil
}

func (w *world) answer4xx() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule, "a 4xx refusal", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

func (w *world) answer200() error {
	if w.Last == nil || w.Last.Status != http.StatusOK {
		return verdict.Failf(w.rule, "200", w.Status(), "%s", w.bodyOf())
	}
	return nil
}

func (w *world) bodyOf() string {
	if w.Last == nil {
		return ""
	}
	return w.clip(w.Last.Body)
}

// secondsPass moves the embedded reference's clock; live targets skip.
func (w *world) secondsPass(n int) error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock")
	}
	w.env.Clock.Advance(secondsDuration(n))
	return nil
}

func (w *world) openAPIClean() error {
	rec := w.env.HTTP.Recorder()
	if rec == nil || len(rec.Exchanges()) == 0 {
		return verdict.Errorf("no response to validate")
	}
	if f := rec.Findings(); len(f) > 0 {
		return f[0]
	}
	return nil
}

func secondsDuration(n int) time.Duration { return time.Duration(n) * time.Second }
