package server_test

import (
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// BenchmarkConcurrentSockets holds 1000 agent sockets on one reference
// gateway, each registered and playing a Goofspiel match at once, and
// reports the heap held per socket while all are connected and the
// matches finished per second. Run it with -benchtime=1x.
func BenchmarkConcurrentSockets(b *testing.B) {
	const sockets = 1000
	for i := 0; i < b.N; i++ {
		srv := httptest.NewServer(server.New(server.Options{TurnTimeout: 30 * time.Second}))
		keys := make([][2]string, sockets)
		for k := range keys {
			id, token, err := key(srv.URL)
			if err != nil {
				b.Fatal(err)
			}
			keys[k] = [2]string{id, token}
		}
		ctx, cancel := timeout()
		runtime.GC()
		var before, during runtime.MemStats
		runtime.ReadMemStats(&before)
		agents := make([]*agent, sockets)
		var wg, connected sync.WaitGroup
		errs := make(chan error, 2*sockets)
		start := time.Now()
		for k := range agents {
			wg.Add(1)
			connected.Add(1)
			go func() {
				defer wg.Done()
				a, err := dialAgent(ctx, srv.URL, keys[k][0], keys[k][1], 1)
				connected.Done()
				if err != nil {
					errs <- err
					return
				}
				agents[k] = a
				errs <- a.play(ctx, 1)
			}()
		}
		connected.Wait()
		runtime.ReadMemStats(&during)
		wg.Wait()
		took := time.Since(start)
		close(errs)
		for err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		for _, a := range agents {
			if a != nil {
				a.close()
			}
		}
		cancel()
		srv.Close()
		b.ReportMetric(float64(sockets), "sockets")
		b.ReportMetric(float64(during.HeapAlloc-before.HeapAlloc)/sockets, "heap-B/socket")
		b.ReportMetric(sockets/took.Seconds(), "matches/s")
	}
}

// BenchmarkMatchesGatewayVsInProcess plays the same baseline-against-
// baseline matches through the gateway (one socket, matches back to back)
// and in process on the engine, in one run, and reports both rates and
// their ratio.
func BenchmarkMatchesGatewayVsInProcess(b *testing.B) {
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := timeout()
	defer cancel()
	b.ResetTimer()
	start := time.Now()
	a, err := dialAgent(ctx, srv.URL, id, token, b.N)
	if err != nil {
		b.Fatal(err)
	}
	if err := a.play(ctx, b.N); err != nil {
		b.Fatal(err)
	}
	gateway := time.Since(start)
	a.close()
	start = time.Now()
	for i := 0; i < b.N; i++ {
		m, _ := goofspiel.New(goofspiel.Standard(), []byte{byte(i), byte(i >> 8), byte(i >> 16)})
		for !m.Done() {
			m.View(0)
			m.Bid(0, goofspiel.Baseline(m.View(0)))
			m.Bid(1, goofspiel.Baseline(m.View(1)))
			m.EventsAfter(0)
		}
		m.Result()
	}
	inProcess := time.Since(start)
	b.ReportMetric(float64(b.N)/gateway.Seconds(), "gateway-matches/s")
	b.ReportMetric(float64(b.N)/inProcess.Seconds(), "inprocess-matches/s")
	b.ReportMetric(gateway.Seconds()/inProcess.Seconds(), "gateway/inprocess")
}
