package bounty

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEachNewRoundOwesOneNoticePerNotifyURL: a round that opens owes one
// round_open notice to every agent with a notify_url and none to the
// others; the first round, opened with the engine, owes none; a cleared
// notify_url gets none; the broken engine owes two (BOUNTY-ROUND-OPEN-NOTICE).
func TestEachNewRoundOwesOneNoticePerNotifyURL(t *testing.T) {
	e := New(1, (&fakeClock{time.Unix(1_800_000_000, 0)}).now)
	assert.Empty(t, e.TakeNotices(), "the first round is no new round")
	sub := register(t, e)
	register(t, e) // an agent with no notify_url, owed nothing
	secret := func(id string) string { return e.agents[id].Secret }
	url, none := "https://agent.example/round", ""
	_, err := e.EditProfile(ProfileEdit{AgentID: sub, Secret: secret(sub), NotifyURL: &url})
	require.Nil(t, err)
	e.HouseWin()
	got := e.TakeNotices()
	require.Len(t, got, 1)
	assert.Equal(t, Notice{URL: url, Round: 2, ChallengeID: e.live().ChallengeID}, got[0])
	assert.Empty(t, e.TakeNotices(), "a notice is handed over once")

	_, err = e.EditProfile(ProfileEdit{AgentID: sub, Secret: secret(sub), NotifyURL: &none})
	require.Nil(t, err)
	e.HouseWin()
	assert.Empty(t, e.TakeNotices(), "a cleared notify_url gets no notice")

	e.Break("BOUNTY-ROUND-OPEN-NOTICE")
	_, err = e.EditProfile(ProfileEdit{AgentID: sub, Secret: secret(sub), NotifyURL: &url})
	require.Nil(t, err)
	e.HouseWin()
	assert.Len(t, e.TakeNotices(), 2, "the broken engine announces the round twice")
}
