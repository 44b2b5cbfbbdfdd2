package pyyol

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// BenchmarkMonopolyPushVsInProcess measures whole Monopoly matches (the
// kit's pushed match: turn cap 30, 4 seats) two ways in one run: the
// referee pushing every body, signed, over loopback to the reference
// agent, and the same match on the engine alone with the docs' example
// deciding the agent's seat. It reports both rates and their ratio.
func BenchmarkMonopolyPushVsInProcess(b *testing.B) {
	srv := httptest.NewServer(agent.New(agent.Options{Monopoly: true}))
	defer srv.Close()
	secrets := &driver.Secrets{}
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: srv.URL + agent.BasePath, Secrets: secrets, Timeout: 10 * time.Second},
		driver.NewHMACSigner(agent.DevSecret, driver.PyyolScheme(), secrets))
	var pushed, local time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		ref := &MonopolyReferee{Referee: Referee{Push: push, Seed: uint64(i)}, Players: 4}
		if _, err := ref.Play(context.Background()); err != nil {
			b.Fatal(err)
		}
		pushed += time.Since(start)
		start = time.Now()
		playLocally(b, ref.rules(), monopolySeed(uint64(i)))
		local += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(n/pushed.Seconds(), "pushed-matches/s")
	b.ReportMetric(n/local.Seconds(), "in-process-matches/s")
	b.ReportMetric(pushed.Seconds()/local.Seconds(), "push/in-process")
}

// playLocally plays the match the referee pushes on the engine alone.
func playLocally(b *testing.B, rules monopoly.Rules, seed uint64) {
	g, err := monopoly.New(rules, seed)
	if err != nil {
		b.Fatal(err)
	}
	for !g.Over() {
		actor := g.Actor()
		mv := g.Bot(actor)
		if actor == 0 {
			mv = agent.MonopolyBaseline(g.View(0))
		}
		if err := g.Apply(actor, mv); err != nil {
			b.Fatal(err)
		}
	}
}
