package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/benchpair/wire"
	"github.com/agentgames/conformance/reference/skeleton"
)

// BenchmarkReferenceVsBareHandler measures the share-exchange reference
// (responder and the platform beside it) over loopback against a separate
// bare net/http handler answering the same bytes, interleaved, for a
// write mix (identities adopted through the control surface, PULLs for
// them, answered or refused as the board decides) and a GET mix (the
// responder, the platform's challenges and peers); "sx-*-speed" is the
// reference's throughput as a fraction of the bare handler's (goal >= 0.7).
func BenchmarkReferenceVsBareHandler(b *testing.B) {
	json := http.Header{"Content-Type": {"application/json"}}
	newRef := func() http.Handler {
		clock := skeleton.NewClock(time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC))
		return New(skeleton.Config{Seed: 1, Now: clock.Now})
	}
	b.Run("writes", func(b *testing.B) {
		ref := newRef()
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, BasePath+PlatformPath+"/challenges", nil))
		cid, round := wire.Field(rec.Body.Bytes(), "challenge_id"), wire.Field(rec.Body.Bytes(), "round")
		if cid == "" || round == "" {
			b.Fatalf("no live round: %s", rec.Body)
		}
		i := 0
		wire.Report(b, "sx-writes", ref, func(prev *wire.Response) wire.Request {
			i++
			agent := "agent-bench-" + strconv.Itoa(i/2%64)
			if i%2 == 0 {
				if prev != nil && prev.Status == http.StatusBadRequest {
					b.Fatalf("pull: %d %s", prev.Status, prev.Body) // a documented refusal is fine, a malformed pull is not
				}
				return wire.Request{Method: http.MethodPost, Path: BasePath + "/control/adopt", Header: json,
					Body: []byte(`{"agent_id":"` + agent + `","shares":{"1":"0a1b2c3d","2":"4e5f6071"}}`)}
			}
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("adopt: %d %s", prev.Status, prev.Body)
			}
			return wire.Request{Method: http.MethodPost, Path: BasePath + "/", Header: json,
				Body: []byte(`{"protocol":"abp-share-exchange/1","challenge_id":"` + cid + `","round":` + round + `,"requester":"agent-peer","agent_id":"` + agent + `","share_index":1}`)}
		})
	})
	b.Run("reads", func(b *testing.B) {
		paths := []string{"/", PlatformPath + "/challenges", PlatformPath + "/leaderboard.json"}
		i := 0
		wire.Report(b, "sx-reads", newRef(), func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("read: %d %s", prev.Status, prev.Body)
			}
			i++
			return wire.Request{Method: http.MethodGet, Path: BasePath + paths[i%len(paths)]}
		})
	})
}
