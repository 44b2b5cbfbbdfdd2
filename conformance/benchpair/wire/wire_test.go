package wire

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/benchpair"
)

func TestFieldReadsStringsAndNumbers(t *testing.T) {
	body := []byte(`{"run_id":"r-7","revision": 12,"state":{"turn":3}}`)
	for name, want := range map[string]string{"run_id": "r-7", "revision": "12", "turn": "3", "missing": ""} {
		if got := Field(body, name); got != want {
			t.Errorf("Field(%q) = %q, want %q", name, got, want)
		}
	}
}

// counting is a reference whose every answer differs (a counter in the
// body, a header, a status that alternates), so a replay out of order or
// with other bytes shows.
func counting(delay time.Duration) http.Handler {
	n := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		n++
		w.Header().Set("X-Count", strconv.Itoa(n))
		w.WriteHeader(200 + n%2)
		w.Write([]byte(`{"n":` + strconv.Itoa(n) + `}`))
	})
}

func get(*Response) Request { return Request{Method: http.MethodGet, Path: "/"} }

func TestTheBareHandlerReplaysTheReferencesBytesInOrder(t *testing.T) {
	srv := httptest.NewServer(counting(0))
	defer srv.Close()
	c := newClient()
	var captured []Response
	for range 3 {
		captured = append(captured, *send(t, c, srv.URL, get(nil)))
	}
	replay := httptest.NewServer(bare(captured))
	defer replay.Close()
	for i := range 2 * len(captured) {
		got, want := send(t, c, replay.URL, get(nil)), captured[i%len(captured)]
		if got.Status != want.Status || string(got.Body) != string(want.Body) || got.Header.Get("X-Count") != want.Header.Get("X-Count") {
			t.Fatalf("replay %d: %d %s %q, want %d %s %q", i, got.Status, got.Body, got.Header.Get("X-Count"),
				want.Status, want.Body, want.Header.Get("X-Count"))
		}
	}
}

func TestASlowReferenceReportsALowSpeed(t *testing.T) {
	bareSide, refSide := sides(t, counting(2*time.Millisecond), get, 8)
	res := benchpair.Measure(2*benchpair.Rounds, bareSide, refSide)
	if res.WallRatio >= 0.7 {
		t.Fatalf("a reference 2 ms slower per request than net/http measured %.2f of the bare handler's speed", res.WallRatio)
	}
}
