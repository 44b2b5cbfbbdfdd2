package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/benchpair"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewayProcessEnv makes TestGatewayProcess serve instead of skipping.
const gatewayProcessEnv = "PYYOL_BENCH_GATEWAY_PROCESS"

// TestGatewayProcess is BenchmarkConcurrentSockets' server: run as a child
// process of the benchmark (the test binary again, with gatewayProcessEnv
// set), it serves a gateway on a loopback port and, on a second port, its
// own heap after a GC, so the benchmark weighs the server's memory alone,
// not the agents' ends of the sockets. It prints both addresses and serves
// until stdin closes.
func TestGatewayProcess(t *testing.T) {
	if os.Getenv(gatewayProcessEnv) == "" {
		t.Skip("the gateway child process of BenchmarkConcurrentSockets; runs only under it")
	}
	srv := httptest.NewServer(server.New(server.Options{TurnTimeout: 30 * time.Second}))
	defer srv.Close()
	stats := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Fprintf(w, "%d", m.HeapAlloc)
	}))
	defer stats.Close()
	fmt.Printf("gateway %s stats %s\n", srv.URL, stats.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// gatewayProcess starts TestGatewayProcess as a child and returns the
// gateway's URL and a function reading the child's heap.
func gatewayProcess(b *testing.B) (string, func() uint64) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestGatewayProcess$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), gatewayProcessEnv+"=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	var gateway, stats string
	if _, err := fmt.Fscanf(bufio.NewReader(stdout), "gateway %s stats %s\n", &gateway, &stats); err != nil {
		b.Fatalf("gateway child: %v", err)
	}
	heap := func() uint64 {
		resp, err := http.Get(stats)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var n uint64
		if _, err := fmt.Fscan(resp.Body, &n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	return gateway, heap
}

// BenchmarkConcurrentSockets holds 1000 agent sockets on one reference
// gateway, each registered and playing a Goofspiel match at once, and
// reports the gateway's heap per socket while all are connected (measured
// in the gateway's own process, so only the server's end of each
// connection counts) and the matches finished per second. Run it with
// -benchtime=1x.
func BenchmarkConcurrentSockets(b *testing.B) {
	const sockets = 1000
	for i := 0; i < b.N; i++ {
		url, heap := gatewayProcess(b)
		keys := make([][2]string, sockets)
		for k := range keys {
			id, token, err := key(url)
			if err != nil {
				b.Fatal(err)
			}
			keys[k] = [2]string{id, token}
		}
		ctx, cancel := timeout()
		before := heap()
		agents := make([]*agent, sockets)
		var wg, connected sync.WaitGroup
		errs := make(chan error, 2*sockets)
		start := time.Now()
		for k := range agents {
			wg.Add(1)
			connected.Add(1)
			go func() {
				defer wg.Done()
				a, err := dialAgent(ctx, url, keys[k][0], keys[k][1], 1)
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
		during := heap()
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
		b.ReportMetric(float64(sockets), "sockets")
		b.ReportMetric(float64(int64(during)-int64(before))/sockets, "server-heap-B/socket")
		b.ReportMetric(sockets/took.Seconds(), "matches/s")
	}
}

// BenchmarkMatchesGatewayVsInProcess plays baseline-against-baseline
// Goofspiel matches through the gateway (one socket, matches back to back)
// and in process on the engine, interleaved A B A B, and reports
// "gateway/inprocess" (time). Both sides play the same matches: the
// in-process match n is dealt with the gateway's seed for its n-th.
func BenchmarkMatchesGatewayVsInProcess(b *testing.B) {
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := timeout()
	defer cancel()
	a, err := dialAgent(ctx, srv.URL, id, token, benchTotal(b.N))
	if err != nil {
		b.Fatal(err)
	}
	defer a.close()
	target, played := 0, uint64(0)
	gateway := func(n int) {
		target += n
		if err := a.play(ctx, target); err != nil {
			b.Fatal(err)
		}
	}
	inProcess := func(n int) {
		for range n {
			played++
			m, _ := goofspiel.New(goofspiel.Standard(), gatewaySeedBytes(0, played))
			for !m.Done() {
				m.View(0)
				m.Bid(0, goofspiel.Baseline(m.View(0)))
				m.Bid(1, goofspiel.Baseline(m.View(1)))
				m.EventsAfter(0)
			}
			m.Result()
		}
	}
	benchpair.Report(b, "gateway/inprocess", gateway, inProcess)
}
