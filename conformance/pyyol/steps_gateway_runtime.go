package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayRuntimeSteps registers the steps of features/pyyol/gateway-runtime.feature
// that a superseding socket (s) serves.
func (s *superseding) gatewayRuntimeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent registers again on a second socket$`), s.again)
	sc.Step(pattern(`^the first socket was closed as superseded$`), s.closed)
}

// gatewayRuntimeSteps registers the steps of features/pyyol/gateway-runtime.feature.
func (g *gwRun) gatewayRuntimeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent connects and registers with a wrong token$`), g.connectWrong)
	sc.Step(pattern(`^the gateway refused with error unauthorized and closed the socket$`), g.refusedCheck)
	sc.Step(pattern(`^events arrived in strictly increasing seq order$`), g.ordered)
	sc.Step(pattern(`^initialize and every turn carried an id$`), g.ids)
	sc.Step(pattern(`^the gateway answered the ping with a pong$`), g.pong)
	sc.Step(pattern(`^the game_end lists the usage with meter_source sdk$`), g.usage)
}

// closed reports whether the socket has ended.
func (g *gwRun) closed() bool {
	select {
	case <-g.ws.Done():
		return true
	default:
		return false
	}
}

func (g *gwRun) connectWrong(ctx context.Context) error {
	f, err := g.register(ctx, "sk_arena_not_a_key_"+g.agentID)
	if err != nil {
		return err
	}
	if f.T != "error" || f.Error != "unauthorized" {
		g.refusal = verdict.Failf("PYYOL-WS-UNAUTHORIZED", `{"t":"error","error":"unauthorized"}`, string(f.wire), "the answer to a wrong token")
	}
	return nil
}

func (g *gwRun) refusedCheck(ctx context.Context) error {
	if g.refusal != nil {
		return g.refusal
	}
	// After the error the socket must close: the next read ends it. The
	// wait is absolute: frames meanwhile (a ping) do not extend it.
	by := time.Now().Add(waitLimit(g.env))
	for {
		_, err := g.read(ctx, by)
		if err == nil {
			continue
		}
		select {
		case <-g.ws.Done():
			return nil
		default:
			return verdict.Failf("PYYOL-WS-UNAUTHORIZED", "the socket closed", "still open after "+waitLimit(g.env).String(), "after the unauthorized error")
		}
	}
}

func (g *gwRun) ordered() error {
	last := 0
	for _, e := range g.events {
		if e.Seq <= last {
			return verdict.Failf("PYYOL-WS-EVENT-SEQ", "seq above "+describe(last), e.Seq, "event %s", e.Type)
		}
		last = e.Seq
	}
	if last == 0 {
		return verdict.Failf("PYYOL-WS-EVENT-SEQ", "events", "none", "the match sent no events")
	}
	return nil
}

func (g *gwRun) ids() error {
	if len(g.inits) == 0 {
		return verdict.Failf("PYYOL-WS-INITIALIZE", "an initialize frame", "none", "the match start")
	}
	for _, f := range g.inits {
		if f.ID == "" || f.Seat == nil {
			return verdict.Failf("PYYOL-WS-INITIALIZE", "an id and the seat", string(f.wire), "initialize frame")
		}
	}
	for _, f := range g.turns {
		if f.ID == "" {
			return verdict.Failf("PYYOL-WS-TURN", "an id", string(f.wire), "turn frame")
		}
	}
	return nil
}

func (g *gwRun) pong() error {
	if g.pongs == 0 {
		return verdict.Failf("PYYOL-WS-PING", "a pong", "none", "the answer to the agent's ping")
	}
	if g.pongs < g.pings {
		return verdict.Failf("PYYOL-WS-PING", fmt.Sprintf("a pong to each of %d pings", g.pings), g.pongs, "pongs before game_end")
	}
	return nil
}

// usage notes a game_end without usage records, or one whose meter_source
// is not sdk (PYYOL-REF-USAGE, the kit's choice), and lets the scenario go
// on: the MUST steps after it (every answered turn played as answered,
// every round resolved by the rules) are still decided.
func (g *gwRun) usage() error {
	var res struct {
		Usage []struct {
			MeterSource string `json:"meter_source"`
		} `json:"usage"`
	}
	note := g.env.HTTP.Recorder().Finding
	if g.end == nil || json.Unmarshal(g.end.Result, &res) != nil || len(res.Usage) == 0 {
		note(verdict.Failf("PYYOL-REF-USAGE", "usage records in game_end", "none", "the recorded usage"))
		return nil
	}
	for _, u := range res.Usage {
		if u.MeterSource != "sdk" {
			note(verdict.Failf("PYYOL-REF-USAGE", "sdk", u.MeterSource, "meter_source"))
			return nil
		}
	}
	return nil
}

// again opens a second socket for the same agent and registers on it.
func (s *superseding) again(ctx context.Context) error {
	s.first = s.g.ws
	f, err := s.g.register(ctx, s.g.token)
	if err != nil {
		return err
	}
	if f.T != "registered" {
		// The docs say nothing of a second socket: refusing it is the
		// gateway's choice, and only the kit's reference choice differs.
		return verdict.Failf("PYYOL-REF-SUPERSEDED", "registered on the second socket", string(f.wire), "a second registration of one agent")
	}
	return nil
}
