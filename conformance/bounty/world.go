package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// world is one scenario: the live challenge, the team the runner plays and
// what each member solved, and the last combine.
type world struct {
	*client
	cid      string
	round    int
	man      manifestDoc
	team     []agent
	held     map[string][]int // agent -> shares solved this round
	shareHex map[int]string   // share index -> its share_hex this round
	rule     string           // the scenario's rule tag
	reg      regChallenge
	regOut   map[string]any
	won      map[string]any // the winning combine's answer
	closed   string         // the challenge the win closed
	names    map[int]string
	race     []*driver.Response    // the answers of racing combines
	wonFirst string                // the first of two rounds the team won
	wonRound int                   // the round number the last win closed
	counters [2]int                // current_round, rounds_completed before the win
	records  map[string]*kitRecord // what the run did as each agent
	seenAt   time.Time             // a listing's last_seen before its refresh
	expires  countdown             // a listing's expires_in_s before a wait (countdown.go)
	clock    countdown             // a board clock before a wait (countdown.go)
	// listEvents is the round's list-events figure before a refresh.
	listEvents float64
	// initResult is the last MCP initialize result.
	initResult json.RawMessage
	// notices is the kit's https endpoint named as a notify_url.
	notices *driver.Inbound
	// endedSeason is the standings read just before the season control
	// ended the season; lastBoardBody the leaderboard last read (seasons.go).
	endedSeason   []standingDoc
	lastBoardBody []byte
}

// runState is what lives across scenarios of one run: the rotators that
// open fresh rounds and every agent the runner ever listed.
type runState struct {
	mu        sync.Mutex
	rotators  []agent
	listed    map[string]bool
	uniqueSeq int
}

func (w *world) state() (*runState, error) {
	v, err := w.env.Shared.Once("bounty-run", func() (any, error) {
		return &runState{listed: map[string]bool{}}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*runState), nil
}

// member returns team member i (1-based).
func (w *world) member(i int) (agent, error) {
	if i < 1 || i > len(w.team) {
		return agent{}, verdict.Errorf("the scenario has no agent %d (team of %d)", i, len(w.team))
	}
	return w.team[i-1], nil
}

// rotate wins the live round with three rotators on the constant-time
// shares 2, 3 and 5.
func (w *world) rotate(ctx context.Context, st *runState) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	for len(st.rotators) < 3 {
		a, err := w.register(ctx)
		if err != nil {
			return err
		}
		st.rotators = append(st.rotators, a)
	}
	var subs []map[string]any
	for i, share := range []int{2, 3, 5} {
		hexShare, err := w.solveAs(ctx, w.cid, w.man, st.rotators[i], share)
		if err != nil {
			return err
		}
		subs = append(subs, map[string]any{"agent_id": st.rotators[i].ID, "share_index": share, "share_hex": hexShare})
	}
	resp, err := w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/combine", map[string]any{"submissions": subs})
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Failf("BOUNTY-PAYOUT", "a coalition of 3 credited solvers wins", resp.Status, "setup: %s", w.clip(resp.Body))
	}
	return nil
}

func (w *world) delistAll(ctx context.Context, st *runState) error {
	st.mu.Lock()
	ids := make([]string, 0, len(st.listed))
	for id := range st.listed {
		ids = append(ids, id)
	}
	st.mu.Unlock()
	sort.Strings(ids)
	for _, id := range ids {
		resp, err := w.list(ctx, w.cid, map[string]any{"agent_id": id, "remove": true})
		if err != nil {
			return err
		}
		if resp.Status/100 != 2 {
			return verdict.Failf("BOUNTY-PEERS-DELIST", "200 for remove: true", resp.Status, "setup: %s", w.clip(resp.Body))
		}
	}
	st.mu.Lock()
	st.listed = map[string]bool{}
	st.mu.Unlock()
	return nil
}

// noteListed remembers an agent the runner listed, to delist it later.
func (w *world) noteListed(id string) {
	if st, err := w.state(); err == nil {
		st.mu.Lock()
		st.listed[id] = true
		st.mu.Unlock()
	}
}

// solveShare solves share s as member i and records the share.
func (w *world) solveShare(ctx context.Context, i, s int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	h, err := w.solveAs(ctx, w.cid, w.man, a, s)
	if f, ok := err.(*verdict.Failure); ok && w.mcpAgents[a.ID] && !w.overMCP {
		f.RuleID = "BOUNTY-MCP-SAME-STATE" // an HTTP agent's solve refused over MCP: two engines
	}
	if err != nil {
		return err
	}
	w.held[a.ID] = append(w.held[a.ID], s)
	w.shareHex[s] = h
	w.recordOf(a.ID).solves++
	return nil
}

// parsePairs reads "1:2, 2:3" into (member, share) pairs.
func parsePairs(text string) ([][2]int, error) {
	var out [][2]int
	for _, item := range strings.Split(text, ",") {
		parts := strings.Split(strings.TrimSpace(item), ":")
		if len(parts) != 2 {
			return nil, fmt.Errorf("bad pair %q", item)
		}
		a, err1 := strconv.Atoi(parts[0])
		s, err2 := strconv.Atoi(parts[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad pair %q", item)
		}
		out = append(out, [2]int{a, s})
	}
	return out, nil
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
	sol := bountysolve.Puzzle(p)
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

func (w *world) bodyOf() string {
	if w.Last == nil {
		return ""
	}
	return w.clip(w.Last.Body)
}

func secondsDuration(n int) time.Duration { return time.Duration(n) * time.Second }
