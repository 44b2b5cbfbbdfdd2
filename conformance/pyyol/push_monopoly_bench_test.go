package pyyol

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/benchpair"
	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// BenchmarkMonopolyPushVsInProcess measures whole Monopoly matches (the
// kit's pushed match: turn cap 30, 4 seats) two ways, interleaved A B A B
// by benchpair: the referee pushing every body, signed, over loopback to
// the reference agent, and the same match (same rules, same seed, the
// reference agent's baseline in seat 0) on the engine alone. It reports
// "push/in-process" (time).
func BenchmarkMonopolyPushVsInProcess(b *testing.B) {
	srv := httptest.NewServer(agent.New(agent.Options{Monopoly: true}))
	defer srv.Close()
	secrets := &driver.Secrets{}
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: srv.URL + agent.BasePath, Secrets: secrets, Timeout: 10 * time.Second},
		driver.NewHMACSigner(agent.DevSecret, driver.PyyolScheme(), secrets))
	var pushedSeed, localSeed uint64
	var rules monopoly.Rules
	pushed := func(n int) {
		for range n {
			ref := &MonopolyReferee{Referee: Referee{Push: push, Seed: pushedSeed}, Players: 4}
			if _, err := ref.Play(context.Background()); err != nil {
				b.Fatal(err)
			}
			rules = ref.rules()
			pushedSeed++
		}
	}
	local := func(n int) {
		for range n {
			playLocally(b, rules, monopolySeed(localSeed))
			localSeed++
		}
	}
	benchpair.Report(b, "push/in-process", pushed, local)
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
