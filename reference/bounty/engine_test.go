package bounty

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func register(t *testing.T, e *Engine) string {
	t.Helper()
	ch := e.RegChallenge()
	tok := ch["reg_token"].(string)
	out, err := e.Register(tok, SolveRegistration(tok, RegBits))
	require.Nil(t, err)
	return out["agent_id"].(string)
}

func TestARoundIsWonByKAgentsAndRotates(t *testing.T) {
	clock := &fakeClock{time.Unix(1_800_000_000, 0)}
	e := New(1, clock.now)
	cid := e.live().ChallengeID
	var subs []Submission
	for i := 1; i <= K; i++ {
		id := register(t, e)
		p, _ := e.PuzzleOf(cid, i)
		out, err := e.Solve(cid, id, i, Solve(p))
		require.Nil(t, err)
		subs = append(subs, Submission{AgentID: id, ShareIndex: i, ShareHex: out["share_hex"].(string)})
		_, err = e.Post(cid, ListRequest{AgentID: id, Contact: "https://agent.example/" + id})
		require.Nil(t, err)
	}
	peers, _ := e.Peers(cid)
	prox := peers["coalition_proximity"].(Proximity)
	assert.True(t, prox.CombinableNow)
	lowest := subs[0].AgentID
	for _, s := range subs {
		lowest = min(lowest, s.AgentID)
	}
	assert.Equal(t, lowest, prox.Broker, "the broker is the roster's lowest agent_id")

	_, err := e.Combine(cid, subs[:2])
	require.NotNil(t, err)
	assert.Equal(t, "too_few_agents", err.Code)
	solo := []Submission{subs[0], {AgentID: subs[0].AgentID, ShareIndex: 2, ShareHex: subs[1].ShareHex}, {AgentID: subs[0].AgentID, ShareIndex: 3, ShareHex: subs[2].ShareHex}}
	_, err = e.Combine(cid, solo)
	assert.Equal(t, "too_few_agents", err.Code)
	swapped := []Submission{subs[0], {AgentID: subs[2].AgentID, ShareIndex: 2, ShareHex: subs[1].ShareHex}, {AgentID: subs[1].AgentID, ShareIndex: 3, ShareHex: subs[2].ShareHex}}
	_, err = e.Combine(cid, swapped)
	assert.Equal(t, "unearned_share", err.Code)

	won, err := e.Combine(cid, subs)
	require.Nil(t, err)
	assert.NotEqual(t, cid, won["next_challenge_id"])
	total := 0
	for _, v := range won["payouts"].(map[string]int) {
		total += v
	}
	assert.Equal(t, BountyAmount, total)
	_, err = e.Manifest(cid)
	assert.Equal(t, 410, err.Status)
	_, err = e.Status(cid)
	assert.Nil(t, err)

	next := won["next_challenge_id"].(string)
	peers, _ = e.Peers(next)
	assert.Len(t, peers["peers"], K, "listings carry over")
	clock.t = clock.t.Add(1801 * time.Second)
	peers, _ = e.Peers(next)
	assert.Empty(t, peers["peers"], "expired listings are pruned")
}

// TestARepeatedSolveIsNotAnotherAcceptedSolve: research_telemetry counts
// accepted solve attempts; solving a share one already holds again is
// answered (the share is still one's own) but counted neither in the
// metrics nor in the solver's record.
func TestARepeatedSolveIsNotAnotherAcceptedSolve(t *testing.T) {
	clock := &fakeClock{time.Unix(1_800_000_000, 0)}
	e := New(1, clock.now)
	cid := e.live().ChallengeID
	id := register(t, e)
	p, _ := e.PuzzleOf(cid, 2)
	for i := 0; i < 3; i++ {
		_, err := e.Solve(cid, id, 2, Solve(p))
		require.Nil(t, err)
	}
	m, err := e.Metrics(cid)
	require.Nil(t, err)
	assert.Equal(t, map[string]int{"accepted": 1, "rejected": 0}, m["solve_attempts"])
	assert.Equal(t, 1, e.agents[id].AcceptedSolves)
}
