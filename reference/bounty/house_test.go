package bounty

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHouseWinRotatesTheRoundLikeAnyWin: the house coalition's win closes
// the live round (410 on it, status still readable), opens the next one,
// pays k agents marked house, and leaves a listed agent listed.
func TestHouseWinRotatesTheRoundLikeAnyWin(t *testing.T) {
	clock := &fakeClock{time.Unix(1_800_000_000, 0)}
	e := New(1, clock.now)
	cid := e.live().ChallengeID
	id := register(t, e)
	_, err := e.Post(cid, ListRequest{AgentID: id, Contact: "https://agent.example/" + id})
	require.Nil(t, err)

	assert.Equal(t, cid, e.HouseWin())
	next := e.live()
	assert.NotEqual(t, cid, next.ChallengeID)
	assert.Equal(t, 2, next.Number)
	_, err = e.Manifest(cid)
	require.NotNil(t, err)
	assert.Equal(t, 410, err.Status)
	_, err = e.Status(cid)
	assert.Nil(t, err, "a closed round stays readable")

	standings := e.Leaderboard()["standings"].([]Standing)
	var house int
	for _, s := range standings {
		if s.House {
			house++
			assert.Positive(t, s.PlayEarned)
		}
	}
	assert.Equal(t, K, house)
	peers, perr := e.Peers(next.ChallengeID)
	require.Nil(t, perr)
	var listed []string
	for _, v := range peers["peers"].([]PeerView) {
		listed = append(listed, v.AgentID)
	}
	assert.Contains(t, listed, id, "listings carry over into the new round")
}
