package mafia_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// fixed deals seats 0-2 Mafia, 3 Detective, 4 Doctor, 5 Sheriff, 6-11 Villagers.
func fixed() *mafia.Match {
	return mafia.NewWithRoles(mafia.Table())
}

// night plays one night: the Mafia kill kill, the Detective investigates
// look, the Doctor protects guard, the Sheriff profiles 0.
func night(t *testing.T, m *mafia.Match, kill, look, guard int) {
	for s := 0; s < 3; s++ {
		if m.Alive(s) {
			require.NoError(t, m.Act(s, mafia.Move{Action: mafia.ActNightKill, Target: mafia.At(kill)}))
		}
	}
	acts := map[int]mafia.Move{3: {Action: mafia.ActInvestigate, Target: mafia.At(look)},
		4: {Action: mafia.ActProtect, Target: mafia.At(guard)}, 5: {Action: mafia.ActProfile, Target: mafia.At(look)}}
	for s := 3; s <= 5; s++ {
		if m.Alive(s) {
			require.NoError(t, m.Act(s, acts[s]))
		}
	}
}

// talk has every living seat post a message.
func talk(t *testing.T, m *mafia.Match) {
	for s := range mafia.Seats {
		if m.Alive(s) {
			require.NoError(t, m.Act(s, mafia.Move{Action: mafia.ActMessage, Tone: "info", Text: "hi"}))
		}
	}
}

// vote has each living seat vote by choose(seat).
func vote(t *testing.T, m *mafia.Match, choose func(int) int) {
	for s := range mafia.Seats {
		if m.Alive(s) {
			require.NoError(t, m.Act(s, mafia.Move{Action: mafia.ActVote, Target: mafia.At(choose(s))}))
		}
	}
}

func TestNightKillAndProtection(t *testing.T) {
	t.Parallel()
	m := fixed()
	require.Equal(t, []string{mafia.ActNightKill}, m.Legal(0))
	require.Equal(t, []string{}, m.Legal(6), "Villagers have no night action")
	night(t, m, 7, 0, 7)
	assert.True(t, m.Alive(7), "the protected seat survives")
	assert.Equal(t, mafia.Discussion, m.Phase())
	assert.Equal(t, "MAFIA", m.View(3).Private[0].Payload["finding"])
	assert.NotContains(t, m.View(5).Private[0].Payload, "finding", "the Sheriff gets no finding")
	talk(t, m)
	vote(t, m, func(s int) int { return map[bool]int{true: 10, false: 11}[s != 10] })
	assert.False(t, m.Alive(10))
	assert.Equal(t, 2, m.Day())
	night(t, m, 7, 8, 4)
	assert.False(t, m.Alive(7), "an unprotected target dies")
}

func TestDoctorMayProtectItself(t *testing.T) {
	t.Parallel()
	m := fixed()
	night(t, m, 4, 1, 4)
	assert.True(t, m.Alive(4))
}

func TestVoteTieEliminatesTheLowestTiedSeat(t *testing.T) {
	t.Parallel()
	m := fixed()
	night(t, m, 11, 0, 3)
	talk(t, m)
	// 10 living: five vote 8, five vote 9.
	vote(t, m, func(s int) int {
		if s < 5 || s == 9 {
			return 8
		}
		return 9
	})
	assert.False(t, m.Alive(8))
	assert.True(t, m.Alive(9))
}

func TestWinConditions(t *testing.T) {
	t.Parallel()
	m := fixed()
	for day := 0; !m.Done(); day++ {
		night(t, m, 6+day, firstAlive(m, 0), 3)
		if m.Done() {
			break
		}
		talk(t, m)
		vote(t, m, func(s int) int {
			if s == day {
				return day + 1
			}
			return day
		})
	}
	assert.Equal(t, mafia.TeamTown, m.Winner(), "every Mafia voted out")

	m = fixed()
	for !m.Done() {
		if m.Phase() == mafia.Night {
			first := firstAlive(m, 6)
			night(t, m, first, 1, 4)
			continue
		}
		talk(t, m)
		target := firstAlive(m, 3)
		vote(t, m, func(s int) int {
			if s == target {
				return firstAlive(m, target+1)
			}
			return target
		})
	}
	assert.Equal(t, mafia.TeamMafia, m.Winner())
	mafiaN, town := m.Living()
	assert.Equal(t, 3, mafiaN)
	assert.Equal(t, 3, town, "mafia win as soon as they equal the Town")
}

func firstAlive(m *mafia.Match, from int) int {
	for s := from; s < mafia.Seats; s++ {
		if m.Alive(s) {
			return s
		}
	}
	return -1
}

func TestThousandsOfBaselineMatchesEnd(t *testing.T) {
	t.Parallel()
	wins := map[string]int{}
	for i := range 2000 {
		m := mafia.New([]byte(strconv.Itoa(i)))
		for steps := 0; !m.Done(); steps++ {
			require.Less(t, steps, 12*3*mafia.Seats)
			s := m.Waiting()[0]
			require.NoError(t, m.Act(s, mafia.Baseline(m.View(s))))
		}
		wins[m.Winner()]++
	}
	assert.Equal(t, 2000, wins[mafia.TeamTown]+wins[mafia.TeamMafia])
}
