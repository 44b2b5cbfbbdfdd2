package server

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair/wire"
	"github.com/agentgames/conformance/reference/iyra"
)

// BenchmarkReferenceVsBareHandler measures the Iyra server over loopback
// against a separate bare net/http handler answering the same bytes,
// interleaved, for a write mix (sessions created and played: investigate
// until the game refuses, then a new session) and a GET mix (session,
// store, assignment, trust); "iyra-*-speed" is the reference's throughput
// as a fraction of the bare handler's (goal >= 0.7).
func BenchmarkReferenceVsBareHandler(b *testing.B) {
	auth := func(h *harness) http.Header {
		return http.Header{"Authorization": {"Bearer " + h.key}, "Content-Type": {"application/json"}}
	}
	b.Run("writes", func(b *testing.B) {
		h := newHarness(b, Options{Seed: 9})
		sessions, acts, id, rev := 0, 0, "", ""
		wire.Report(b, "iyra-writes", h.s, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status == http.StatusCreated {
				id, rev = wire.Field(prev.Body, "session_id"), wire.Field(prev.Body, "revision")
			} else if prev != nil && prev.Status == http.StatusOK {
				rev = wire.Field(prev.Body, "revision")
			} else if prev != nil {
				b.Fatalf("write: %d %s", prev.Status, prev.Body)
			}
			if acts%4 == 0 {
				id = "" // first call, or the last session was withdrawn from
			}
			if id == "" {
				sessions, acts = sessions+1, 1
				hdr := auth(h)
				hdr.Set("Idempotency-Key", "bench-session-"+strconv.Itoa(sessions))
				return wire.Request{Method: http.MethodPost, Path: BasePath + "/store/" + Slug + "/sessions", Header: hdr,
					Body: []byte(`{"ready_to_act":true,"accepted_version_id":"` + VersionID + `","variant":"quiet_city"}`)}
			}
			action := `{"type":"investigate","site":"` + string(iyra.Sites[acts%len(iyra.Sites)]) + `"}`
			if acts++; acts%4 == 0 {
				action = `{"type":"withdraw"}`
			}
			return wire.Request{Method: http.MethodPost, Path: BasePath + "/sessions/" + id + "/actions", Header: auth(h),
				Body: []byte(`{"revision":` + rev + `,"action":` + action + `}`)}
		})
	})
	b.Run("reads", func(b *testing.B) {
		h := newHarness(b, Options{Seed: 9})
		id := h.session("bench-read", "quiet_city")["session_id"].(string)
		paths := []string{"/sessions/" + id, "/store/" + Slug, "/store/" + Slug + "/assignment", "/trust"}
		i := 0
		wire.Report(b, "iyra-reads", h.s, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("read: %d %s", prev.Status, prev.Body)
			}
			i++
			return wire.Request{Method: http.MethodGet, Path: BasePath + paths[i%len(paths)], Header: auth(h)}
		})
	})
}
