package forge_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

func newEngine(t *testing.T) (*forge.Engine, *time.Time) {
	t.Helper()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e, err := forge.New(forge.Options{Seed: 1, Now: func() time.Time { return now }})
	require.NoError(t, err)
	return e, &now
}

func agent(t *testing.T, e *forge.Engine, name string) *forge.Agent {
	reg, err := e.Register(name)
	require.Nil(t, err)
	a, err := e.Authenticate(reg.APIKey)
	require.Nil(t, err)
	return a
}

// answers computes the right outputs of a session with the seed oracles.
func answers(t *testing.T, position int, inputs [][]int64) []any {
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	var p authoring.Package
	require.NoError(t, json.Unmarshal(seed[position-1], &p))
	var out []any
	for _, in := range inputs {
		v, err := dsl.Eval(p.Private.Oracle, in)
		require.NoError(t, err)
		var x any
		raw, _ := json.Marshal(v)
		require.NoError(t, json.Unmarshal(raw, &x))
		out = append(out, x)
	}
	return out
}

func TestSolvingTheSeedChainReachesTheFrontier(t *testing.T) {
	e, _ := newEngine(t)
	a := agent(t, e, "ada")
	for pos := 1; pos <= forge.SeedLast; pos++ {
		s, err := e.OpenSession(a)
		require.Nil(t, err)
		require.Equal(t, pos, s.Position)
		res, err := e.Submit(a, s.SessionID, answers(t, pos, s.ChallengeInputs))
		require.Nil(t, err)
		require.True(t, res.Correct, "position %d", pos)
	}
	p := e.Progress(a)
	assert.True(t, p.AtFrontier)
	assert.Equal(t, 10, p.ClearedLevels)
	_, err := e.OpenSession(a)
	assert.Equal(t, "AT_FRONTIER", err.Code)
}

func TestProbesAndSubmissions(t *testing.T) {
	e, now := newEngine(t)
	a := agent(t, e, "bo")
	s, _ := e.OpenSession(a)
	_, err := e.Query(a, s.SessionID, s.ChallengeInputs[0])
	assert.Equal(t, "CHALLENGE_INPUT_QUERY", err.Code)
	q, err := e.Query(a, s.SessionID, []int64{1, 2})
	require.Nil(t, err)
	assert.Equal(t, []int64{4, 5}, q.Output.List)
	wrong := answers(t, 1, s.ChallengeInputs)
	wrong[0], wrong[1] = wrong[1], wrong[0]
	res, err := e.Submit(a, s.SessionID, wrong)
	require.Nil(t, err)
	assert.False(t, res.Correct, "outputs are judged in the original order")
	_, err = e.Submit(a, s.SessionID, wrong)
	assert.Equal(t, "ALREADY_SUBMITTED", err.Code)
	s2, _ := e.OpenSession(a)
	*now = now.Add(forge.SessionTTL)
	_, err = e.Query(a, s2.SessionID, []int64{1})
	assert.Equal(t, "SESSION_EXPIRED", err.Code)
}

func TestNicknames(t *testing.T) {
	e, _ := newEngine(t)
	agent(t, e, "same")
	_, err := e.Register("same")
	assert.Equal(t, "NICKNAME_TAKEN", err.Code)
	_, err = e.Register("ééééééééééééééééééééééééééééééééééééééééé") // 41 code points
	assert.Equal(t, "INVALID_NICKNAME", err.Code)
	_, err = e.Register("éééééééééééééééééééééééééééééééééééééééé") // 40
	assert.Nil(t, err)
}

func authoredPackage(t *testing.T, id string) []byte {
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(seed[0], &p))
	p["id"] = id
	p["public"].(map[string]any)["title"] = "Authored " + id
	raw, _ := json.Marshal(p)
	return raw
}

func TestAppendIdempotencyAndDuplicates(t *testing.T) {
	e, _ := newEngine(t)
	a, b := agent(t, e, "author"), agent(t, e, "other")
	body := authoredPackage(t, "lvl-one")
	pub, replay, err := e.Append(a, "key-00000001", body)
	require.NoError(t, err)
	assert.False(t, replay)
	assert.Equal(t, 11, pub.Position)
	assert.Equal(t, "author", pub.Author)
	again, replay, err := e.Append(a, "key-00000001", body)
	require.NoError(t, err)
	assert.True(t, replay)
	assert.Equal(t, pub, again)
	_, _, err = e.Append(a, "key-00000001", authoredPackage(t, "lvl-two"))
	assert.Equal(t, "IDEMPOTENCY_KEY_REUSED", err.(*forge.Error).Code)
	_, _, err = e.Append(b, "key-00000001", body)
	assert.Equal(t, "DUPLICATE_ID", err.(*forge.Error).Code, "keys are per agent: another agent's key is a new attempt")
	_, _, err = e.Append(a, "short", body)
	assert.Equal(t, "INVALID_IDEMPOTENCY_KEY", err.(*forge.Error).Code)
	assert.Equal(t, 11, e.Chain().Length)
}

func TestAuthorSkipsItsOwnLevelAndRanksShareTies(t *testing.T) {
	e, _ := newEngine(t)
	a := agent(t, e, "author")
	agent(t, e, "idle")
	_, _, err := e.Append(a, "key-00000001", authoredPackage(t, "lvl-own"))
	require.NoError(t, err)
	for pos := 1; pos <= forge.SeedLast; pos++ {
		s, err := e.OpenSession(a)
		require.Nil(t, err)
		_, err = e.Submit(a, s.SessionID, answers(t, pos, s.ChallengeInputs))
		require.Nil(t, err)
	}
	p := e.Progress(a)
	assert.True(t, p.AtFrontier)
	assert.Equal(t, []int{11, 10, 1}, []int{p.ChainProgress, p.ClearedLevels, p.SkippedLevels})
	lb := e.Leaderboards()
	assert.Equal(t, 1, lb.Solvers[0].Rank)
	assert.Equal(t, 2, lb.Solvers[1].Rank)
	assert.Equal(t, 1, lb.Authors[0].AcceptedLevels)
	assert.Len(t, lb.FirstSolves, 10)
}
