package bounty

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// boardRules are the MUST rules the board property can break.
var boardRules = []string{"BOUNTY-PROXIMITY", "BOUNTY-BROKER", "BOUNTY-ELECTION", "BOUNTY-NEXT-MOVE", "BOUNTY-HOLDINGS", "BOUNTY-PEERS-TTL"}

// boardAction is one step of the board property.
type boardAction struct {
	Op      string `json:"op"` // list, delist, solve, wait
	Agent   int    `json:"agent,omitempty"`
	Share   int    `json:"share,omitempty"`
	Seconds int    `json:"seconds,omitempty"`
}

// boardMachine lists, delists, claims and solves with a team of four on a
// fresh round, and after every step recomputes coalition_proximity, the
// solver election and every member's next_move from the board the target
// serves, and checks the holdings against the solves it made.
type boardMachine struct{ w *world }

// boardProperty is the rapid state machine over the peers board, played
// over HTTP or through the MCP tools.
func boardProperty(overMCP bool) suite.Property {
	return suite.Property{Name: "the peers board under random listings, claims and solves", Rules: boardRules,
		New: func(ctx context.Context, env *suite.Env) (suite.Machine, error) {
			w := &world{client: &client{env: env, overMCP: overMCP, mcpAgents: map[string]bool{}}, held: map[string][]int{}, shareHex: map[int]string{}, names: map[int]string{}}
			if err := w.freshRound(ctx, 4); err != nil {
				return nil, err
			}
			return &boardMachine{w: w}, nil
		}}
}

func (m *boardMachine) Draw(t *rapid.T) suite.Action {
	ops := []string{"list", "list", "delist", "solve", "solve"}
	if m.w.env.Clock != nil {
		ops = append(ops, "wait")
	}
	a := boardAction{Op: rapid.SampledFrom(ops).Draw(t, "op"), Agent: rapid.IntRange(1, 4).Draw(t, "agent")}
	switch a.Op {
	case "list":
		a.Share = rapid.IntRange(0, 5).Draw(t, "working_on")
	case "solve":
		a.Share = rapid.IntRange(1, 5).Draw(t, "share")
	case "wait":
		a.Seconds = rapid.SampledFrom([]int{5, 31, 500, 1801}).Draw(t, "seconds")
	}
	raw, _ := json.Marshal(a)
	return raw
}

func (m *boardMachine) Apply(ctx context.Context, raw suite.Action) error {
	var a boardAction
	if err := json.Unmarshal(raw, &a); err != nil {
		return verdict.Errorf("bad action %s", raw)
	}
	if err := m.do(ctx, a); err != nil {
		return err
	}
	return m.check(ctx)
}

func (m *boardMachine) do(ctx context.Context, a boardAction) error {
	w := m.w
	member, err := w.member(a.Agent)
	if err != nil {
		return err
	}
	switch a.Op {
	case "list":
		body := map[string]any{"agent_id": member.ID, "contact": contactOf(member)}
		if a.Share > 0 {
			body["working_on"] = a.Share
		}
		return w.mustPost(ctx, body)
	case "delist":
		return w.delist(ctx, a.Agent)
	case "solve":
		if slices.Contains(w.held[member.ID], a.Share) {
			return nil
		}
		return w.solveShare(ctx, a.Agent, a.Share)
	case "wait":
		return w.clockPasses(a.Seconds)
	}
	return verdict.Errorf("unknown op %q", a.Op)
}

// check reads the board once and checks every signal on it.
func (m *boardMachine) check(ctx context.Context) error {
	w := m.w
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if err := w.checkProximity(b); err != nil {
		return err
	}
	if err := w.checkElection(b); err != nil {
		return err
	}
	for _, a := range w.team {
		if e, ok := b.entry(a.ID); ok && holdingKey(e.SharesHeld) != holdingKey(w.held[a.ID]) {
			return verdict.Failf("BOUNTY-HOLDINGS", w.held[a.ID], e.SharesHeld, "%s: shares_held must be its accepted solves", a.ID)
		}
		if err := w.checkNextMove(ctx, b, a, false); err != nil {
			return err
		}
	}
	return nil
}

func holdingKey(held []int) string {
	s := slices.Clone(held)
	slices.Sort(s)
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}
