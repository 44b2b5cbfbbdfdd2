package server_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair/wire"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// BenchmarkHTTPSurfaceVsBareHandler measures the Pyyol gateway's HTTP
// surface (its WebSocket play is BenchmarkMatchesGatewayVsInProcess) over
// loopback against a separate bare net/http handler answering the same
// bytes, interleaved, for a write mix (practice agents minted, wallet
// limits set) and a GET mix (public stake tiers, the agent's wallet);
// "pyyol-*-speed" is the reference's throughput as a fraction of the bare
// handler's (goal >= 0.7).
func BenchmarkHTTPSurfaceVsBareHandler(b *testing.B) {
	setup := func(b *testing.B) (*server.Gateway, string, http.Header) {
		g := server.New(server.Options{})
		rec := httptest.NewRecorder()
		g.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, server.BasePath+"/practice/agents", nil))
		id, token := wire.Field(rec.Body.Bytes(), "agent_id"), wire.Field(rec.Body.Bytes(), "token")
		if rec.Code != http.StatusCreated || token == "" {
			b.Fatalf("mint: %d %s", rec.Code, rec.Body)
		}
		return g, id, http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}}
	}
	b.Run("writes", func(b *testing.B) {
		g, id, auth := setup(b)
		i := 0
		wire.Report(b, "pyyol-writes", g, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK && prev.Status != http.StatusCreated {
				b.Fatalf("write: %d %s", prev.Status, prev.Body)
			}
			if i++; i%2 == 0 {
				return wire.Request{Method: http.MethodPost, Path: server.BasePath + "/practice/agents"}
			}
			return wire.Request{Method: http.MethodPut, Path: server.BasePath + "/agents/" + id + "/limits", Header: auth,
				Body: []byte(`{"max_bid":` + strconv.Itoa(100+i%50) + `,"min_wallet_balance":10}`)}
		})
	})
	b.Run("reads", func(b *testing.B) {
		g, id, auth := setup(b)
		paths := []string{"/games/goofspiel/stakes", "/agents/" + id + "/wallet", "/games/monopoly/stakes"}
		i := 0
		wire.Report(b, "pyyol-reads", g, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("read: %d %s", prev.Status, prev.Body)
			}
			i++
			return wire.Request{Method: http.MethodGet, Path: server.BasePath + paths[i%len(paths)], Header: auth}
		})
	})
}
