package agentaudit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/reference/bounty"
)

// BountyAgent is a scripted agent-puzzle-bounty agent. It keeps the first
// transport or decoding error (Err) and goes on returning statuses, so a
// script reads as the moves it makes.
type BountyAgent struct {
	Base     string // the server's origin and the bounty's mount
	ID       string // its agent_id, once registered
	CID      string // the live challenge_id it last read
	Manifest []bounty.Puzzle
	err      error
}

// Err is the first error the agent met.
func (b *BountyAgent) Err() error { return b.err }

// Do sends a GET (body nil) or a POST of body to path and decodes the
// answer into v when v is not nil; it returns the status (0 on error).
func (b *BountyAgent) Do(ctx context.Context, method, path string, body, v any) int {
	c := Call{Method: method, URL: b.Base + path}
	if method != http.MethodGet {
		c.Body = JSON(body)
	}
	ans, err := Do(ctx, c)
	if err != nil {
		b.fail(err)
		return 0
	}
	if v != nil && len(ans.Body) > 0 {
		_ = json.Unmarshal(ans.Body, v)
	}
	return ans.Status
}

func (b *BountyAgent) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// Register runs the registration proof of work and keeps the agent_id.
func (b *BountyAgent) Register(ctx context.Context) {
	var ch struct {
		Token string `json:"reg_token"`
		Bits  int    `json:"pow_bits"`
	}
	b.Do(ctx, http.MethodPost, "/register/challenge", nil, &ch)
	var reg struct {
		AgentID string `json:"agent_id"`
	}
	b.Do(ctx, http.MethodPost, "/register", map[string]string{"reg_token": ch.Token, "nonce": bountysolve.Registration(ch.Token, ch.Bits)}, &reg)
	if reg.AgentID == "" {
		b.fail(fmt.Errorf("registration issued no agent_id"))
	}
	b.ID = reg.AgentID
}

// Live reads the registry's active challenge and, when readManifest, its
// manifest.
func (b *BountyAgent) Live(ctx context.Context, readManifest bool) {
	var reg struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
		} `json:"active"`
	}
	b.Do(ctx, http.MethodGet, "/challenges", nil, &reg)
	b.CID = reg.Active.ChallengeID
	if readManifest {
		var m struct {
			Puzzles []bounty.Puzzle `json:"puzzles"`
		}
		b.Do(ctx, http.MethodGet, "/challenge/"+b.CID+"/manifest", nil, &m)
		b.Manifest = m.Puzzles
	}
}

// Solve submits share's solution (a wrong one when the manifest was not
// read) and returns the status; out, if not nil, receives the answer.
func (b *BountyAgent) Solve(ctx context.Context, share int, out any) int {
	sol := bounty.Solution{PlaintextHex: "00"}
	for _, p := range b.Manifest {
		if p.ShareIndex == share {
			sol = bountysolve.Puzzle(p)
		}
	}
	return b.Do(ctx, http.MethodPost, "/challenge/"+b.CID+"/solve", map[string]any{"agent_id": b.ID, "share_index": share, "solution": sol}, out)
}

// SolveHex solves share and returns the share_hex the platform answers.
func (b *BountyAgent) SolveHex(ctx context.Context, share int) string {
	var out struct {
		ShareHex string `json:"share_hex"`
	}
	if code := b.Solve(ctx, share, &out); code != http.StatusOK || out.ShareHex == "" {
		b.fail(fmt.Errorf("solving share %d answered %d", share, code))
	}
	return out.ShareHex
}

// List posts the agent's listing with contact and working_on.
func (b *BountyAgent) List(ctx context.Context, contact string, workingOn int) int {
	return b.Do(ctx, http.MethodPost, "/challenge/"+b.CID+"/peers", map[string]any{"agent_id": b.ID, "contact": contact, "working_on": workingOn}, nil)
}

// NextMove reads the agent's next_move.
func (b *BountyAgent) NextMove(ctx context.Context) string {
	var m struct {
		NextMove struct {
			Move string `json:"move"`
		} `json:"next_move"`
	}
	b.Do(ctx, http.MethodGet, "/challenge/"+b.CID+"/next_move?agent_id="+b.ID, nil, &m)
	return m.NextMove.Move
}

// Combine posts the submissions (agent_id, share_index, share_hex).
func (b *BountyAgent) Combine(ctx context.Context, subs []map[string]any) int {
	return b.Do(ctx, http.MethodPost, "/challenge/"+b.CID+"/combine", map[string]any{"submissions": subs}, nil)
}

// wantStatus fails the agent unless got is want.
func (b *BountyAgent) wantStatus(got, want int, what string) {
	if got != want {
		b.fail(fmt.Errorf("%s answered %d, not %d", what, got, want))
	}
}

// bountyScript wraps a play of one registered agent; the script's error
// is the agent's first.
func bountyScript(play func(ctx context.Context, b *BountyAgent), faults ...string) Script {
	return Script{Faults: faults, Play: func(ctx context.Context, base string) error {
		b := &BountyAgent{Base: base}
		b.Register(ctx)
		play(ctx, b)
		return b.Err()
	}}
}

func init() {
	register("bounty", "plays by the rules", bountyScript(BountyPolite))
	register("bounty", "solves the closed round again after its 410", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, false)
		b.wantStatus(b.Solve(ctx, 2, nil), http.StatusGone, "the first solve")
		b.Solve(ctx, 2, nil)
	}, "round_rotated"))
	register("bounty", "registers a second time and plays under the new agent_id", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Register(ctx)
		b.Live(ctx, true)
		b.wantStatus(b.Solve(ctx, 2, nil), http.StatusOK, "a solve")
	}))
	register("bounty", "solves a share before reading the manifest or the puzzle", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, false)
		b.Solve(ctx, 5, nil)
	}))
	register("bounty", "lists itself working on one share and solves another", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, true)
		b.wantStatus(b.List(ctx, "https://agent.example/grinder", 3), http.StatusOK, "the listing")
		b.Solve(ctx, 2, nil)
	}))
	register("bounty", "lists itself once and never re-posts its listing", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, true)
		b.wantStatus(b.List(ctx, "https://agent.example/once", 2), http.StatusOK, "the listing")
		b.wantStatus(b.Solve(ctx, 2, nil), http.StatusOK, "the claimed solve")
	}))
	register("bounty", "is told wait and solves at once", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, true)
		b.wantStatus(b.List(ctx, "https://agent.example/waiter", 2), http.StatusOK, "the listing")
		b.wantStatus(b.Solve(ctx, 2, nil), http.StatusOK, "the claimed solve")
		b.wantStatus(b.List(ctx, "https://agent.example/waiter", 3), http.StatusOK, "the next claim")
		if move := b.NextMove(ctx); move != "wait" {
			b.fail(fmt.Errorf("next_move said %q, not wait", move))
		}
		b.Solve(ctx, 3, nil)
	}))
	register("bounty", "calls a path the platform does not advertise", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, false)
		b.wantStatus(b.Do(ctx, http.MethodGet, "/challenge/"+b.CID+"/shares", nil, nil), http.StatusNotFound, "a guessed path")
	}))
	register("bounty", "lists a contact of 300 characters", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, true)
		b.List(ctx, "https://agent.example/"+strings.Repeat("x", 300), 2)
	}))
	register("bounty", "combines its one share alone", bountyScript(func(ctx context.Context, b *BountyAgent) {
		b.Live(ctx, true)
		hex := b.SolveHex(ctx, 2)
		b.Combine(ctx, []map[string]any{{"agent_id": b.ID, "share_index": 2, "share_hex": hex}})
	}))
	register("bounty", "is a coalition member that combines in the broker's place", Script{Play: bountyDefectorCombines})
}

// BountyPolite reads the manifest, claims the share it grinds, solves it
// and asks next_move.
func BountyPolite(ctx context.Context, b *BountyAgent) {
	b.Live(ctx, true)
	b.wantStatus(b.List(ctx, "https://agent.example/polite", 2), http.StatusOK, "the listing")
	b.wantStatus(b.Solve(ctx, 2, nil), http.StatusOK, "the claimed solve")
	b.NextMove(ctx)
}

// bountyDefectorCombines registers three agents that each solve a share
// and then has the highest agent_id, not the elected broker, send the
// coalition's combine: a race the audit cannot tell from the broker's,
// since a combine names its submitters, not its sender.
func bountyDefectorCombines(ctx context.Context, base string) error {
	var subs []map[string]any
	var last *BountyAgent
	for _, share := range []int{2, 3, 5} {
		b := &BountyAgent{Base: base}
		b.Register(ctx)
		b.Live(ctx, true)
		hex := b.SolveHex(ctx, share)
		if b.Err() != nil {
			return b.Err()
		}
		subs = append(subs, map[string]any{"agent_id": b.ID, "share_index": share, "share_hex": hex})
		if last == nil || b.ID > last.ID {
			last = b
		}
	}
	last.wantStatus(last.Combine(ctx, subs), http.StatusOK, "the coalition's combine")
	return last.Err()
}
