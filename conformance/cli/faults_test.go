package cli_test

import (
	"bytes"
	"encoding/json"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

func TestFaultsListNamesWhatEachProtocolInjects(t *testing.T) {
	t.Parallel()
	code, out, _ := run("serve", "--faults", "list")
	assert.Equal(t, 0, code)
	for _, want := range []string{"PP-QUOTA-429", "PP-QUOTA-503", "IYRA-RATE-LIMIT", "FORGE-RATE-LIMIT", "BOUNTY-STALE-410", "SX-STALE",
		"IYRA-PROOF-EXPIRY", "IYRA-REVISION-STALE"} {
		assert.Contains(t, out, want)
	}
	code, _, errOut := run("serve", "--faults", "often")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--faults takes list, a profile")
}

// serveFaulted serves ps with their documented faults at rate.
func serveFaulted(t *testing.T, ps []*suite.Protocol, rate float64, logs *bytes.Buffer) string {
	t.Helper()
	srv := httptest.NewServer(cli.ServeMuxWith(ps, 7, log.New(logs, "", 0), cli.ServeOptions{FaultRate: rate}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestInjectedFaultsAreTheDocumentedAnswers: at rate 1 every counted write
// of The Phantom Press meets a quota answer exactly as the contract
// writes it, and a status action, which the quota does not count, never
// does.
func TestInjectedFaultsAreTheDocumentedAnswers(t *testing.T) {
	t.Parallel()
	pp, _ := protocols.Lookup("phantom-press")
	var logs bytes.Buffer
	base := serveFaulted(t, []*suite.Protocol{pp}, 1, &logs) + pp.BasePath
	seen := map[int]bool{}
	for i := 0; i < 20; i++ {
		resp, err := http.Post(base+"/runs", "application/json", strings.NewReader(`{"budget_turns":10}`))
		require.NoError(t, err)
		var body struct {
			Code  string `json:"code"`
			Limit struct {
				ResetAt string `json:"reset_at"`
			} `json:"limit"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		resp.Body.Close()
		seen[resp.StatusCode] = true
		switch resp.StatusCode {
		case http.StatusTooManyRequests:
			assert.Equal(t, "daily_write_limit", body.Code)
			assert.NotEmpty(t, resp.Header.Get("Retry-After"))
			assert.NotEmpty(t, body.Limit.ResetAt)
		case http.StatusServiceUnavailable:
			assert.Equal(t, "quota_unavailable", body.Code)
			assert.Equal(t, "60", resp.Header.Get("Retry-After"))
		default:
			t.Fatalf("a counted write at rate 1 answered %d", resp.StatusCode)
		}
	}
	assert.True(t, seen[429] && seen[503], "both documented faults are drawn: %v", seen)
	resp, err := http.Post(base+"/runs/run_000000000000/action", "application/json", strings.NewReader(`{"action":"status"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.NotContains(t, []int{429, 503}, resp.StatusCode, "status is not a counted write")
	assert.Contains(t, logs.String(), "fault injected: PP-QUOTA-429 daily_write_limit 429 into POST /game/phantom-press/api/runs (anonymous, request #1)")
}

// TestRunAgainstServeFaultsNeverFailsARule: a live run against reference
// servers injecting their documented faults meets them as documented
// answers (harness errors or skips), never as a broken rule. The runs wait
// out the faults' Retry-After, so they go side by side, each against its
// own server, and the test runs beside the others (every run binds the
// protocols' default flags, so none changes another's). FORGE's run meets
// about twenty rate limits of a second each, so it runs as three shards,
// which together run exactly its unsharded checks.
func TestRunAgainstServeFaultsNeverFailsARule(t *testing.T) {
	t.Parallel()
	type faultedRun struct {
		protocol    string
		rate        float64
		shard       string
		code        int
		out, errOut string
		logs        *bytes.Buffer
		met         []string // faults the seeded run must meet
	}
	forgeMet := []string{"FORGE-RATE-LIMIT"}
	runs := []*faultedRun{
		{protocol: "iyra", rate: 0.3, met: []string{"IYRA-RATE-LIMIT", "IYRA-RECOVERY-READ", "IYRA-REVISION-STALE", "IYRA-PROOF-EXPIRY"}},
		{protocol: "phantom-press", rate: 0.3, met: []string{"PP-QUOTA-429"}},
		{protocol: "forge", rate: 0.05, shard: "1/3", met: forgeMet},
		{protocol: "forge", rate: 0.05, shard: "2/3", met: forgeMet},
		{protocol: "forge", rate: 0.05, shard: "3/3", met: forgeMet},
		{protocol: "bounty", rate: 0.05, met: []string{"BOUNTY-STALE-410"}},
		{protocol: "share-exchange", rate: 0.3, met: []string{"SX-STALE"}},
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		p, ok := protocols.Lookup(r.protocol)
		require.True(t, ok)
		r.logs = &bytes.Buffer{}
		base := serveFaulted(t, []*suite.Protocol{p}, r.rate, r.logs)
		args := []string{"run", "--target", base, "--protocol", r.protocol, "--seed", "3", "--checks", "2", "--cases", t.TempDir()}
		if r.shard != "" {
			args = append(args, "--shard", r.shard)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.code, r.out, r.errOut = run(args...)
		}()
	}
	wg.Wait()
	logs := map[string]string{} // every shard's fault log, by protocol
	for _, r := range runs {
		name := r.protocol + " " + r.shard
		assert.NotEqual(t, 1, r.code, "%s: %s\n%s", name, tail(r.out), r.errOut)
		assert.NotContains(t, r.out, "... FAIL", name)
		logs[r.protocol] += r.logs.String()
	}
	for _, r := range runs {
		for _, rule := range r.met {
			assert.Contains(t, logs[r.protocol], "fault injected: "+rule+" ", "%s: the run met no %s", r.protocol, rule)
		}
	}
}

// TestBountyRotationFaultIsARealRotation: at rate 1 a round-bound request
// meets the documented 410 round_closed because the round did close (the
// registry names the next round, one higher), and the share-exchange
// responder answers an exchange on the rotated round 409 stale_round.
func TestBountyRotationFaultIsARealRotation(t *testing.T) {
	t.Parallel()
	b, _ := protocols.Lookup("bounty")
	var logs bytes.Buffer
	base := serveFaulted(t, []*suite.Protocol{b}, 1, &logs) + b.BasePath
	active := func() (string, int) {
		var reg struct {
			Active struct {
				ChallengeID string `json:"challenge_id"`
				Round       int    `json:"round"`
			} `json:"active"`
		}
		require.NoError(t, json.Unmarshal([]byte(get(t, base+"/challenges", "")), &reg))
		return reg.Active.ChallengeID, reg.Active.Round
	}
	cid, round := active()
	resp, err := http.Get(base + "/challenge/" + cid + "/manifest")
	require.NoError(t, err)
	var refusal struct {
		Code string `json:"code"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&refusal))
	resp.Body.Close()
	assert.Equal(t, http.StatusGone, resp.StatusCode)
	assert.Equal(t, "round_closed", refusal.Code)
	next, nextRound := active()
	assert.NotEqual(t, cid, next)
	assert.Equal(t, round+1, nextRound)
	assert.Contains(t, get(t, base+"/challenge/"+cid+"/status", ""), cid, "a closed round stays readable")
	assert.Contains(t, logs.String(), "fault injected: BOUNTY-STALE-410 round_rotated 410 into GET /bounty/challenge/"+cid+"/manifest")

	sx, _ := protocols.Lookup("share-exchange")
	sxBase := serveFaulted(t, []*suite.Protocol{sx}, 1, &logs) + sx.BasePath
	var reg struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
		} `json:"active"`
	}
	require.NoError(t, json.Unmarshal([]byte(get(t, sxBase+"/platform/challenges", "")), &reg))
	post(t, sxBase+"/control/adopt", "", "", `{"agent_id":"agent-b","shares":{"1":"`+strings.Repeat("ab", 33)+`"}}`)
	pull := post(t, sxBase+"/", "", "", `{"protocol":"abp-share-exchange/1","challenge_id":"`+reg.Active.ChallengeID+`","round":1,"requester":"agent-a","agent_id":"agent-b","share_index":1}`)
	require.NoError(t, json.NewDecoder(pull.Body).Decode(&refusal))
	assert.Equal(t, http.StatusConflict, pull.StatusCode)
	assert.Equal(t, "stale_round", refusal.Code)
}

// TestIyraExpiredChallengeFault: at rate 1 an acceptance carries a
// challenge whose expires_at has come, and its proof, however right, meets
// the reference's 422 challenge_expired.
func TestIyraExpiredChallengeFault(t *testing.T) {
	t.Parallel()
	p, _ := protocols.Lookup("iyra")
	var logs bytes.Buffer
	base := serveFaulted(t, []*suite.Protocol{p}, 1, &logs) + p.BasePath
	var acc struct {
		AgentID     string `json:"agent_id"`
		ChallengeID string `json:"challenge_id"`
		Challenge   string `json:"challenge"`
		ExpiresAt   string `json:"expires_at"`
		Difficulty  int    `json:"difficulty"`
	}
	resp := post(t, base+"/tasks/play/accept", "", "", `{"name":"late","model":"m","capabilities":["http"],"campaign":"challenge-play-w1"}`)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&acc))
	exp, err := time.Parse(time.RFC3339, acc.ExpiresAt)
	require.NoError(t, err)
	assert.False(t, time.Now().Before(exp), "expires_at %s has come", acc.ExpiresAt)
	ver := post(t, base+"/agents/verify", "", "", `{"agent_id":"`+acc.AgentID+`","challenge_id":"`+acc.ChallengeID+`","solution":"`+solvePoW(acc.Challenge, acc.Difficulty)+`"}`)
	var refusal struct {
		Code string `json:"code"`
	}
	require.NoError(t, json.NewDecoder(ver.Body).Decode(&refusal))
	assert.Equal(t, http.StatusUnprocessableEntity, ver.StatusCode)
	assert.Equal(t, "challenge_expired", refusal.Code)
	assert.Contains(t, logs.String(), "fault injected: IYRA-PROOF-EXPIRY challenge_expired 422 into POST /api/v5/tasks/play/accept")
}

// TestBountyRotationReachesMCPAgents: the rotation meets a tool call that
// stands for a round-bound endpoint too (one engine behind both
// surfaces), and a live run over --transport mcp meets it as a skip.
func TestBountyRotationReachesMCPAgents(t *testing.T) {
	t.Parallel()
	b, _ := protocols.Lookup("bounty")
	var logs bytes.Buffer
	base := serveFaulted(t, []*suite.Protocol{b}, 0.3, &logs)
	code, out, errOut := run("run", "--target", base, "--protocol", "bounty", "--transport", "mcp", "--seed", "3", "--checks", "2", "--cases", t.TempDir())
	assert.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	assert.NotContains(t, out, "... FAIL")
	assert.Contains(t, logs.String(), "fault injected: BOUNTY-STALE-410 round_rotated 410 into POST /bounty/mcp")
}
