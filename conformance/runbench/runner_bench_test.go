package runbench_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// benchSeed fixes the worlds and the property draws, so every unit of a
// side does the same work.
const benchSeed = 7

// httpProtocols are the protocols whose whole live run is HTTP requests
// to the target (Pyyol's runs hold WebSocket sessions and host endpoints).
var httpProtocols = []string{"iyra", "phantom-press", "forge", "bounty", "share-exchange"}

// BenchmarkRunnerPerRequest compares a whole live run of each HTTP
// protocol against an in-process serve (godog, validation, proof search,
// recording, redaction: everything `conformance run --target` does) with
// a raw http.Client sending exactly the requests that run sent, one after
// the other, to a fresh world of the same seed. Both sides are
// interleaved by benchpair; the metric "runner-wall" is the runner's
// wall time over the raw replay's (goal: at most 1.3), "runner-cpu" the
// same for CPU. Every run of the runner must give the same verdicts as
// the first, and the replay the same statuses as the run it replays.
func BenchmarkRunnerPerRequest(b *testing.B) {
	for _, name := range httpProtocols {
		b.Run(name, func(b *testing.B) { benchProtocol(b, name) })
	}
}

func benchProtocol(b *testing.B, name string) {
	p, ok := protocols.Lookup(name)
	if !ok {
		b.Fatalf("no protocol %s", name)
	}
	ps := []*suite.Protocol{p}
	srv := startServe(b)
	tp := &tape{}
	srv.reset(tp.wrap(serveWorld(ps)))
	want := liveRun(b, ps, srv.url)
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	mismatched := 0
	runner := func(n int) {
		for range n {
			srv.fresh(ps, benchSeed)
			if got := liveRun(b, ps, srv.url); got != want {
				b.Fatalf("%s: verdicts changed between runs: %s, first run %s", name, got, want)
			}
		}
	}
	raw := func(n int) {
		for range n {
			srv.fresh(ps, benchSeed)
			mismatched = replay(b, client, srv.url, tp.reqs)
		}
	}
	benchpair.Report(b, "runner", runner, raw)
	b.ReportMetric(float64(len(tp.reqs)), "requests")
	b.ReportMetric(float64(mismatched), "replay-status-diffs")
}

// serveWorld is a fresh world of benchSeed for ps.
func serveWorld(ps []*suite.Protocol) http.Handler {
	s := &server{}
	s.fresh(ps, benchSeed)
	return *s.handler.Load()
}

// liveRun runs ps against target as `conformance run --target` does and
// returns the verdict counts.
func liveRun(b *testing.B, ps []*suite.Protocol, target string) string {
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: ps, Target: target, Seed: benchSeed, CaseDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		b.Fatalf("run errors: %v", rep.Errors)
	}
	return counts(rep)
}

// counts is a report's verdicts by status.
func counts(rep *verdict.Report) string {
	by := map[verdict.Status]int{}
	for _, r := range rep.Results {
		by[r.Status]++
	}
	return fmt.Sprintf("pass %d fail %d warn %d skip %d error %d", by[verdict.Pass], by[verdict.Fail],
		by[verdict.Warn], by[verdict.Skip], by[verdict.Error])
}

// replay sends reqs to base with client, reading every answer whole, and
// returns how many answered another status than they did to the runner.
func replay(b *testing.B, client *http.Client, base string, reqs []sent) int {
	diffs := 0
	for _, s := range reqs {
		req, err := http.NewRequest(s.method, base+s.uri, bytes.NewReader(s.body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header = s.header.Clone()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != s.status {
			diffs++
		}
	}
	return diffs
}

// BenchmarkLiveRun is the runner side of BenchmarkRunnerPerRequest alone,
// one whole live run per op, for profiling the runner:
//
//	go test -run '^$' -bench 'LiveRun/iyra' -cpuprofile cpu.out ./conformance/runbench/
func BenchmarkLiveRun(b *testing.B) {
	for _, name := range httpProtocols {
		b.Run(name, func(b *testing.B) {
			p, _ := protocols.Lookup(name)
			ps := []*suite.Protocol{p}
			srv := startServe(b)
			for range b.N {
				srv.fresh(ps, benchSeed)
				liveRun(b, ps, srv.url)
			}
		})
	}
}
