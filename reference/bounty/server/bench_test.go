package server_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/benchpair/wire"
	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// benchBounty is a bounty server on a fixed clock (the round never ends
// mid-benchmark), the live challenge's id and four registered agents.
func benchBounty(b *testing.B) (http.Handler, string, [][2]string) {
	e := bounty.New(1, func() time.Time { return time.Unix(1_800_000_000, 0) })
	h := server.NewServer(e)
	var agents [][2]string
	for range 4 {
		tok := e.RegChallenge()["reg_token"].(string)
		out, err := e.Register(tok, bounty.SolveRegistration(tok, bounty.RegBits))
		if err != nil {
			b.Fatal(err)
		}
		agents = append(agents, [2]string{out["agent_id"].(string), out["agent_secret"].(string)})
	}
	_, ch := do(b, h, http.MethodGet, "/challenges", "")
	return h, ch["active"].(map[string]any)["challenge_id"].(string), agents
}

// BenchmarkReferenceVsBareHandler measures the bounty server over
// loopback against a separate bare net/http handler answering the same
// bytes, interleaved, for a write mix (peer listings refreshed, profiles
// edited) and a GET mix (challenges, peers, status, leaderboard,
// next_move); "bounty-*-speed" is the reference's throughput as a
// fraction of the bare handler's (goal >= 0.7).
func BenchmarkReferenceVsBareHandler(b *testing.B) {
	json := http.Header{"Content-Type": {"application/json"}}
	b.Run("writes", func(b *testing.B) {
		h, cid, agents := benchBounty(b)
		i := 0
		wire.Report(b, "bounty-writes", h, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("write: %d %s", prev.Status, prev.Body)
			}
			i++
			a := agents[i%len(agents)]
			if i%2 == 0 {
				return wire.Request{Method: http.MethodPost, Path: server.BasePath + "/challenge/" + cid + "/peers", Header: json,
					Body: []byte(`{"agent_id":"` + a[0] + `","contact":"mailto:bench@example.org","message":"round ` + strconv.Itoa(i) + `"}`)}
			}
			return wire.Request{Method: http.MethodPost, Path: server.BasePath + "/agents/profile", Header: json,
				Body: []byte(`{"agent_id":"` + a[0] + `","agent_secret":"` + a[1] + `","name":"bench ` + strconv.Itoa(i%100) + `"}`)}
		})
	})
	b.Run("reads", func(b *testing.B) {
		h, cid, agents := benchBounty(b)
		paths := []string{"/challenges", "/challenge/" + cid + "/peers", "/challenge/" + cid + "/status", "/leaderboard.json",
			"/challenge/" + cid + "/next_move?agent_id=" + agents[0][0]}
		i := 0
		wire.Report(b, "bounty-reads", h, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("read: %d %s", prev.Status, prev.Body)
			}
			i++
			return wire.Request{Method: http.MethodGet, Path: server.BasePath + paths[i%len(paths)]}
		})
	})
}
