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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

func TestFaultsListNamesWhatEachProtocolInjects(t *testing.T) {
	code, out, _ := run("serve", "--faults", "list")
	assert.Equal(t, 0, code)
	for _, want := range []string{"PP-QUOTA-429", "PP-QUOTA-503", "IYRA-RATE-LIMIT", "FORGE-RATE-LIMIT", "bounty"} {
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
	assert.Contains(t, logs.String(), "fault injected: PP-QUOTA-429 daily_write_limit 429 POST /game/phantom-press/api/runs")
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
	}
	runs := []*faultedRun{{protocol: "iyra", rate: 0.3}, {protocol: "phantom-press", rate: 0.3},
		{protocol: "forge", rate: 0.05, shard: "1/3"}, {protocol: "forge", rate: 0.05, shard: "2/3"}, {protocol: "forge", rate: 0.05, shard: "3/3"}}
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
	met := map[string]bool{}
	for _, r := range runs {
		name := r.protocol + " " + r.shard
		assert.NotEqual(t, 1, r.code, "%s: %s\n%s", name, tail(r.out), r.errOut)
		assert.NotContains(t, r.out, "... FAIL", name)
		met[r.protocol] = met[r.protocol] || strings.Contains(r.logs.String(), "fault injected: ")
	}
	for _, name := range []string{"iyra", "phantom-press", "forge"} {
		assert.True(t, met[name], "%s: the run met no fault", name)
	}
}
