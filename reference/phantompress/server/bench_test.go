package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/skeleton"
)

// benchLimits lift the quotas so a benchmark can play many runs.
var benchLimits = Limits{RunsPerKey: 1 << 30, WritesPerAgent: 1 << 30, WritesAll: 1 << 30, Registrations: 1 << 30}

// looper plays looks, starting a new run whenever the budget is spent.
type looper struct {
	c    *client
	run  string
	left int
}

func (l *looper) next() string {
	if l.left == 0 {
		l.run, l.left = l.c.start(200), 200
	}
	l.left--
	return BasePath + "/runs/" + l.run + "/action"
}

// BenchmarkActionsPerSecond measures actions per second through the HTTP
// server (loopback TCP) and through the bare handler in the same run, and
// reports both rates and their ratio.
func BenchmarkActionsPerSecond(b *testing.B) {
	s := New(skeleton.Config{Seed: 1}, WithLimits(benchLimits))
	bare := &looper{c: newClient(b, s)}
	srv := httptest.NewServer(s)
	defer srv.Close()
	wired := &looper{c: newClient(b, s)}
	body := `{"action":"look"}`
	b.ResetTimer()
	var tBare, tWire time.Duration
	for i := 0; i < b.N; i++ {
		path := bare.next()
		start := time.Now()
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+bare.c.key)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		tBare += time.Since(start)
		if rec.Code != 200 {
			b.Fatalf("bare: %d", rec.Code)
		}
		path = wired.next()
		start = time.Now()
		hreq, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		hreq.Header.Set("Authorization", "Bearer "+wired.c.key)
		resp, err := srv.Client().Do(hreq)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		tWire += time.Since(start)
		if resp.StatusCode != 200 {
			b.Fatalf("server: %d", resp.StatusCode)
		}
	}
	bareRate := float64(b.N) / tBare.Seconds()
	wireRate := float64(b.N) / tWire.Seconds()
	b.ReportMetric(bareRate, "bare-actions/s")
	b.ReportMetric(wireRate, "server-actions/s")
	b.ReportMetric(wireRate/bareRate, "server/bare")
	b.Logf("actions/s: bare handler %.0f, through the server %.0f, ratio %.2f", bareRate, wireRate, wireRate/bareRate)
}
