package forge

import (
	"context"
	"encoding/json"
	"math/rand/v2"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// differentialRules are the rules the DSL differential property checks.
var differentialRules = []string{"FORGE-VALID-EXAMPLES", "FORGE-DSL-RLE-TERMINAL", "FORGE-DSL-OVERFLOW-REJECTED"}

// action is one package the target must reject, kept whole so a shrunk
// sequence replays anywhere.
type action struct {
	Kind    string `json:"kind"`
	Rule    string `json:"rule"`
	Package pkg    `json:"package"`
}

// machine sends rapid-generated well-typed programs with one wrong
// example, rle followed by a step, or an overflow: a kit-DSL deployment
// rejects them all and appends nothing, so they are free anywhere.
type machine struct {
	w      *world
	length int
	pool   *spreadPool
}

func newMachine(ctx context.Context, env *suite.Env) (suite.Machine, error) {
	w := &world{client: &client{env: env}}
	if err := w.kitDSL(ctx); err != nil {
		return nil, err
	}
	v, err := env.Shared.Once("forge-machine-agents", func() (any, error) {
		a, err := w.register(ctx, "prop")
		return &spreadPool{agents: []*agent{a}}, err
	})
	if err != nil {
		return nil, err
	}
	pool := v.(*spreadPool)
	w.me = pool.current()
	n, err := w.chainLength(ctx)
	return &machine{w: w, length: n, pool: pool}, err
}

// drawProgram draws a well-typed pipeline from the solver's candidates.
func drawProgram(t *rapid.T) dsl.Program {
	cands := solver.Candidates()
	for {
		n := rapid.IntRange(1, 3).Draw(t, "steps")
		var p dsl.Program
		for i := range n {
			p.Steps = append(p.Steps, cands[rapid.IntRange(0, len(cands)-1).Draw(t, "step"+itoa(i))])
		}
		if _, err := dsl.Check(p); err == nil {
			return p
		}
	}
}

func (m *machine) Draw(t *rapid.T) suite.Action {
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	a := action{Kind: rapid.SampledFrom([]string{"wrong-example", "rle", "overflow"}).Draw(t, "kind")}
	switch a.Kind {
	case "wrong-example":
		p := drawProgram(t)
		a.Package, a.Rule = buildPackage(p, small, [][]int64{randomInput(small, rng), randomInput(small, rng)}, dsl.Dialect{}, rng), "FORGE-VALID-EXAMPLES"
		ex := a.Package["public"].(map[string]any)["examples"].([]any)[0].(map[string]any)
		ex["output"] = corrupt(ex["output"].(dsl.Value))
	case "rle":
		a.Package, a.Rule, _ = wrongReading("rle", rng)
	default:
		a.Package, a.Rule, _ = wrongReading("overflow", rng)
	}
	raw, _ := json.Marshal(a)
	return raw
}

// corrupt changes a value so that it cannot be the oracle's output.
func corrupt(v dsl.Value) dsl.Value {
	switch v.Type {
	case dsl.TInt:
		v.Int++
		if v.Int > dsl.MaxSafe {
			v.Int -= 2
		}
	case dsl.TPairs:
		v.Pairs = append(v.Pairs, [2]int64{0, 1})
		if len(v.Pairs) > 1 && v.Pairs[len(v.Pairs)-2][0] == 0 {
			v.Pairs[len(v.Pairs)-1][0] = 1
		}
	default:
		v.List = append(v.List, 0)
	}
	return v
}

func (m *machine) Apply(ctx context.Context, raw suite.Action) error {
	var a action
	if err := json.Unmarshal(raw, &a); err != nil {
		return verdict.Errorf("bad action: %v", err)
	}
	resp, err := m.publishSpread(ctx, "kit-prop-"+randomHex(8), a.Package)
	if err != nil {
		return err
	}
	if resp.Status/100 != 4 {
		return verdict.Failf(a.Rule, "the package rejected", resp.Status, "%s package: %s", a.Kind, m.w.env.HTTP.Secrets().Clip(resp.Body))
	}
	m.w.Before = m.length
	return m.w.chainUnchanged(ctx, a.Rule)
}
