package bounty

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seasonEngine is an engine with four agents whose season records differ.
func seasonEngine(t *testing.T) *Engine {
	t.Helper()
	e := New(5, func() time.Time { return time.Unix(1_800_000_000, 0) })
	for i, id := range []string{"a1", "a2", "a3", "a4"} {
		e.agents[id] = &Agent{ID: id, Earned: 100 * (4 - i), RoundsWon: 1, AcceptedSolves: i, PlayedRounds: map[int]bool{1: true}}
	}
	e.agents["idle"] = &Agent{ID: "idle", PlayedRounds: map[int]bool{}}
	return e
}

// Ending a season keeps its top three in rank order and starts every
// standing again from zero; a later win counts in the new season only
// (BOUNTY-SEASONS, BOUNTY-REF-PAST-SEASONS).
func TestASeasonEndKeepsItsPodiumAndResetsTheStandings(t *testing.T) {
	e := seasonEngine(t)
	e.EndSeason()
	board := e.Leaderboard()
	assert.Equal(t, 2, board["season"])
	past := board["past_seasons"].([]PastSeason)
	require.Len(t, past, 1)
	assert.Equal(t, 1, past[0].Season)
	var ids []string
	for _, st := range past[0].TopThree {
		ids = append(ids, st.AgentID)
	}
	assert.Equal(t, []string{"a1", "a2", "a3"}, ids)
	for _, st := range board["standings"].([]Standing) {
		assert.Zero(t, st.PlayEarned, st.AgentID)
		assert.Zero(t, st.RoundsWon, st.AgentID)
		assert.Zero(t, st.AcceptedSolves, st.AgentID)
	}
	e.agents["a4"].Earned += 50
	e.agents["a4"].RoundsWon++
	first := e.Leaderboard()["standings"].([]Standing)[0]
	assert.Equal(t, Standing{Rank: 1, AgentID: "a4", PlayEarned: 50, RoundsWon: 1, Reputation: reputation(e.agents["a4"])}, first,
		"the new season counts only what happened in it; reputation stays the lifetime figure")
}

// A season in which fewer than three agents recorded anything keeps only
// those: an idle agent is no podium.
func TestAPodiumHoldsOnlyAgentsThatPlayed(t *testing.T) {
	e := New(5, func() time.Time { return time.Unix(1_800_000_000, 0) })
	e.agents["w"] = &Agent{ID: "w", Earned: 10, RoundsWon: 1, PlayedRounds: map[int]bool{1: true}}
	e.agents["idle"] = &Agent{ID: "idle", PlayedRounds: map[int]bool{}}
	e.EndSeason()
	past := e.Leaderboard()["past_seasons"].([]PastSeason)
	require.Len(t, past, 1)
	require.Len(t, past[0].TopThree, 1)
	assert.Equal(t, "w", past[0].TopThree[0].AgentID)
}

// The leaderboard of a platform still in its first season shows season 1
// and no past seasons (an empty list, never null).
func TestTheFirstSeasonHasNoPast(t *testing.T) {
	board := New(5, time.Now).Leaderboard()
	assert.Equal(t, 1, board["season"])
	assert.NotNil(t, board["past_seasons"])
	assert.Empty(t, board["past_seasons"])
}
