package mafia_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// maxSteps bounds a match: at most 12 days of at most 12+12+12 moves.
const maxSteps = 12 * 3 * mafia.Seats

// snapshot is everything a move could change, for "illegal changes nothing".
// Every view carries the whole public transcript, and so does the outcome;
// the snapshot checks each copy equals m.Public() and encodes it once.
func snapshot(t require.TestingT, m *mafia.Match) string {
	public := m.Public()
	views := make([]mafia.View, mafia.Seats)
	for s := range views {
		views[s] = withoutTranscript(t, m.View(s), public)
	}
	outcome := m.Outcome()
	require.True(t, sameTranscript(public, outcome.Transcript), "the outcome's transcript is the public one")
	outcome.Transcript = nil
	raw, err := json.Marshal(struct {
		Public  []mafia.Event
		Views   []mafia.View
		Outcome mafia.Outcome
	}{public, views, outcome})
	require.NoError(t, err)
	return string(raw)
}

// withoutTranscript is v with its public transcript dropped, after checking
// it is the match's public transcript (so encoding it once loses nothing).
func withoutTranscript(t require.TestingT, v mafia.View, public []mafia.Event) mafia.View {
	require.True(t, sameTranscript(public, v.Public), "seat %d sees the public transcript", v.YourSeat)
	v.Public = nil
	return v
}

// sameTranscript reports whether two transcripts hold equal events; a
// payload shared by both (the usual case: copies of one transcript) is
// equal without walking it.
func sameTranscript(a, b []mafia.Event) bool {
	return slices.EqualFunc(a, b, func(x, y mafia.Event) bool {
		return x.Seq == y.Seq && x.Type == y.Type &&
			(reflect.ValueOf(x.Payload).UnsafePointer() == reflect.ValueOf(y.Payload).UnsafePointer() ||
				reflect.DeepEqual(x.Payload, y.Payload))
	})
}

// playRandom plays a seeded match to the end with random legal moves,
// random illegal moves and missed turns, checking the invariants after
// every step; it returns the number of steps.
func playRandom(t *rapid.T, m *mafia.Match) int {
	steps := 0
	for !m.Done() {
		steps++
		require.LessOrEqual(t, steps, maxSteps, "the match terminates")
		waiting := m.Waiting()
		require.NotEmpty(t, waiting, "a running match waits for someone")
		seat := rapid.SampledFrom(waiting).Draw(t, "seat")
		switch rapid.IntRange(0, 4).Draw(t, "kind") {
		case 0:
			tryIllegal(t, m, seat)
		case 1:
			_, ok := m.Fallback(seat)
			require.True(t, ok, "a waited-for seat has a fallback")
		default:
			require.NoError(t, m.Act(seat, randomLegal(t, m, seat)), "a move from the legal list is accepted")
		}
		checkInvariants(t, m)
		checkRedaction(t, m, seat, rapid.IntRange(0, mafia.Seats-1).Draw(t, "viewer"))
	}
	return steps
}

// randomLegal draws a move from seat's legal list and legal targets.
func randomLegal(t *rapid.T, m *mafia.Match, seat int) mafia.Move {
	kind := rapid.SampledFrom(m.Legal(seat)).Draw(t, "action")
	if kind == mafia.ActMessage {
		return mafia.Move{Action: kind, Tone: rapid.SampledFrom([]string{"info", "accuse", "defend", ""}).Draw(t, "tone"),
			Text: rapid.StringN(0, 40, -1).Draw(t, "text")}
	}
	return mafia.Move{Action: kind, Target: mafia.At(rapid.SampledFrom(m.Targets(seat, kind)).Draw(t, "target"))}
}

// tryIllegal submits a broken move and checks nothing changed.
func tryIllegal(t *rapid.T, m *mafia.Match, seat int) {
	before := snapshot(t, m)
	kind := m.Legal(seat)[0]
	bad := []mafia.Move{
		{Action: "dance", Target: mafia.At(0)},
		{Action: mafia.ActVote, Target: mafia.At(rapid.IntRange(-3, 20).Draw(t, "far"))},
		{Action: kind},
		{Action: kind, Target: mafia.At(seat)},
		{Action: kind, Target: mafia.At(mafia.Seats)},
		{Action: mafia.ActMessage, Text: strings.Repeat("x", mafia.MaxText+1)},
	}
	mv := rapid.SampledFrom(bad).Draw(t, "bad")
	if m.Check(seat, mv) != nil {
		require.Error(t, m.Act(seat, mv))
		require.Equal(t, before, snapshot(t, m), "an illegal move changes nothing")
	}
	for s := range mafia.Seats {
		if len(m.Legal(s)) == 0 {
			require.Error(t, m.Act(s, mafia.Move{Action: mafia.ActVote, Target: mafia.At(0)}), "a seat with no legal action is refused")
		}
	}
	require.Equal(t, before, snapshot(t, m), "refused moves change nothing")
}

// checkInvariants: role supply, victory, redaction.
func checkInvariants(t *rapid.T, m *mafia.Match) {
	roles := m.Roles()
	sorted := slices.Sorted(slices.Values(roles))
	want := slices.Sorted(slices.Values(mafia.Table()))
	require.Equal(t, want, sorted, "the roles are the standard table, conserved")
	mafiaN, town := m.Living()
	if !m.Done() {
		require.Positive(t, mafiaN, "a running match has living Mafia")
		require.Less(t, mafiaN, town, "a running match has more Town than Mafia")
	}
}

// checkRedaction: each viewer's view never shows another seat's role or
// night results, and allies only to Mafia. The public transcript, the same
// in every view, is encoded once for all viewers.
func checkRedaction(t *rapid.T, m *mafia.Match, viewers ...int) {
	public, _ := json.Marshal(m.Public())
	for _, seat := range viewers {
		checkViewRedaction(t, m, seat, string(public))
	}
}

// checkViewRedaction checks seat's view; public is the encoded transcript.
func checkViewRedaction(t *rapid.T, m *mafia.Match, seat int, public string) {
	v := m.View(seat)
	require.Equal(t, m.Role(seat), v.YourRole)
	if v.YourRole == mafia.Mafia {
		require.Len(t, v.Allies, 2)
	} else {
		require.Nil(t, v.Allies, "allies omitted for Town")
	}
	for _, e := range v.Public {
		if e.Type == mafia.EventNight {
			t.Fatalf("night results are never public: seat %d sees %v", seat, e)
		}
	}
	for _, e := range v.Private {
		require.Equal(t, mafia.EventNight, e.Type)
		require.Equal(t, mafia.ActionOf(v.YourRole), e.Payload["action"], "only your own night results")
	}
	v = withoutTranscript(t, v, m.Public())
	raw, _ := json.Marshal(v)
	for other, role := range m.Roles() {
		if other != seat && role != mafia.Villager && !m.Done() && role != mafia.Mafia {
			needle := `"` + role + `"`
			require.NotContains(t, string(raw), needle, "another seat's role never shows")
			require.NotContains(t, public, needle, "another seat's role never shows in the transcript")
		}
	}
}

func TestRandomMatchesKeepTheRules(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		seed := []byte(strconv.Itoa(rapid.Int().Draw(t, "seed")))
		m := mafia.New(seed)
		playRandom(t, m)
		mafiaN, town := m.Living()
		switch m.Winner() {
		case mafia.TeamTown:
			require.Zero(t, mafiaN)
		case mafia.TeamMafia:
			require.GreaterOrEqual(t, mafiaN, town)
		default:
			t.Fatalf("no winner: %q", m.Winner())
		}
		require.Equal(t, m.Roles(), m.Outcome().Roles, "roles revealed at the end")
		last := m.Public()[len(m.Public())-1]
		require.Equal(t, mafia.EventPhase, last.Type)
		require.Equal(t, mafia.Result, last.Payload["phase"])
	})
}

func TestSeqsAreOrdered(t *testing.T) {
	t.Parallel()
	m := playFallbacks(mafia.New([]byte("seq")))
	for i, e := range m.Public() {
		assert.Equal(t, i+1, e.Seq)
	}
}

// playFallbacks plays every seat's fallback to the end.
func playFallbacks(m *mafia.Match) *mafia.Match {
	for !m.Done() {
		m.Fallback(m.Waiting()[0])
	}
	return m
}

func TestDealIsSeededAndStandard(t *testing.T) {
	t.Parallel()
	a, b := mafia.Deal([]byte("x")), mafia.Deal([]byte("x"))
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, mafia.Deal([]byte("y")))
	assert.ElementsMatch(t, mafia.Table(), a)
}
