package pyyol_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// frameEdit rewrites the frames of one type (and event type, when set);
// returning nil drops the frame.
func frameEdit(t, eventType string, edit func(f map[string]any) []map[string]any) server.Rewrite {
	return server.Rewrite{Frame: t, Edit: func(f map[string]any) []map[string]any {
		if f["t"] != t || (eventType != "" && evType(f) != eventType) {
			return []map[string]any{f}
		}
		return edit(f)
	}}
}

func set(t, eventType string, edit func(f map[string]any)) server.Rewrite {
	return frameEdit(t, eventType, func(f map[string]any) []map[string]any { edit(f); return []map[string]any{f} })
}

func drop(t, eventType string) server.Rewrite {
	return frameEdit(t, eventType, func(map[string]any) []map[string]any { return nil })
}

// view, result and evType read a frame the reference sends (payload,
// kind) or one in the kit's earlier layout (view, result, type).
func view(f map[string]any) map[string]any    { return either(f, "payload", "view") }
func payload(f map[string]any) map[string]any { return f["payload"].(map[string]any) }
func result(f map[string]any) map[string]any  { return either(f, "payload", "result") }
func evType(f map[string]any) any {
	if k, ok := f["kind"]; ok {
		return k
	}
	return f["type"]
}

// body is a lifecycle frame's fields: its payload when it has one (the
// reference's layout), else the frame itself (initialize's fields at the
// top level, the kit's earlier layout).
func body(f map[string]any) map[string]any {
	if m, ok := f["payload"].(map[string]any); ok {
		return m
	}
	return f
}

// gameOf is the game a frame names, at the top level or in its body.
func gameOf(f map[string]any) any {
	if g, ok := f["game"]; ok {
		return g
	}
	return body(f)["game"]
}

func either(f map[string]any, a, b string) map[string]any {
	if m, ok := f[a].(map[string]any); ok {
		return m
	}
	return f[b].(map[string]any)
}
func ints(v any) []any     { return v.([]any) }
func swap(xs []any) []any  { return []any{xs[1], xs[0]} }
func sha(b []byte) string  { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func flipWinner(w any) any { return map[float64]float64{0: 1, 1: 0, -1: 0}[w.(float64)] }

// brokenGateways lists, for every MUST rule of the gateway a live run can
// check, a gateway that breaks it.
func brokenGateways() []struct {
	rule string
	opts server.Options
} {
	fakeSeed := []byte("a seed the prizes were not drawn from")
	return []struct {
		rule string
		opts server.Options
	}{
		{"PYYOL-WS-ENVELOPE", server.Options{Rewrite: set("event", "prize_revealed", func(f map[string]any) { delete(f, "t") })}},
		{"PYYOL-WS-HELLO", server.Options{Rewrite: set("hello", "", func(f map[string]any) { f["version"] = "0.9" })}},
		{"PYYOL-WS-REGISTERED", server.Options{Rewrite: set("registered", "", func(f map[string]any) { delete(f, "agent_id") })}},
		{"PYYOL-WS-AGENT-KEY", server.Options{Rewrite: set("registered", "", func(f map[string]any) { f["agent_id"] = "ag_someone_else" })}},
		{"PYYOL-WS-UNAUTHORIZED", server.Options{Tamper: server.AcceptAnyToken}},
		{"PYYOL-WS-INITIALIZE", server.Options{Rewrite: drop("initialize", "")}},
		{"PYYOL-WS-TURN", server.Options{Rewrite: set("turn", "", func(f map[string]any) { delete(f, "id") })}},
		{"PYYOL-WS-CORRELATION", server.Options{Tamper: server.AnyID}},
		{"PYYOL-WS-LATE-RESPONSE", server.Options{Tamper: server.LateApplies}},
		{"PYYOL-WS-EVENT-SEQ", server.Options{Tamper: server.UnorderedEvents}},
		{"PYYOL-WS-ONE-WAY", server.Options{Tamper: server.AwaitsEventAcks}},
		{"PYYOL-WS-GAME-END", server.Options{Rewrite: drop("game_end", "")}},
		{"PYYOL-WS-CONTEXT", server.Options{Rewrite: set("game_end", "", func(f map[string]any) { r := result(f); r["history"] = ints(r["history"])[:5] })}},
		{"PYYOL-WS-PING", server.Options{Rewrite: drop("pong", "")}},
		{"PYYOL-WS-FALLBACK-TIMEOUT", server.Options{Tamper: server.NoFallback}},
		{"PYYOL-WS-FALLBACK-ILLEGAL", server.Options{Tamper: server.NoFallback}},
		{"PYYOL-WS-FALLBACK-ERROR", server.Options{Tamper: server.NoFallback}},
		{"PYYOL-WS-FALLBACK-DISCONNECT", server.Options{Tamper: server.NoFallback}},
		{"PYYOL-WS-RECONNECT", server.Options{Tamper: server.NoReregister}},
		{"PYYOL-GOOF-FALLBACK-LOWEST", server.Options{Tamper: server.FallbackHighest}},
		{"PYYOL-GOOF-MOVE", server.Options{Tamper: server.IgnoresRound}},
		{"PYYOL-GOOF-HANDS", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			v := view(f)
			if len(ints(v["your_hand"])) > 1 {
				v["your_hand"], v["legal_actions"] = ints(v["your_hand"])[1:], ints(v["legal_actions"])[1:]
			}
		})}},
		{"PYYOL-GOOF-VIEW", server.Options{Rewrite: set("turn", "", func(f map[string]any) { view(f)["seat"] = 1 })}},
		{"PYYOL-GOOF-LEGAL-ACTIONS", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			v := view(f)
			if l := ints(v["legal_actions"]); len(l) > 1 {
				v["legal_actions"] = l[:len(l)-1]
			}
		})}},
		{"PYYOL-GOOF-SCORES-ABSOLUTE", server.Options{Rewrite: set("turn", "", func(f map[string]any) { v := view(f); v["scores"] = swap(ints(v["scores"])) })}},
		{"PYYOL-GOOF-HISTORY", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			for _, h := range ints(view(f)["history"]) {
				e := h.(map[string]any)
				e["your_card"], e["opp_card"] = e["opp_card"], e["your_card"]
			}
		})}},
		{"PYYOL-GOOF-ROUNDS", server.Options{Rewrite: server.EveryFrame(func(f map[string]any) []map[string]any {
			if f["t"] == "event" && evType(f) == "round_revealed" && payload(f)["round"] == 12.0 {
				return nil
			}
			if f["t"] == "game_end" {
				r := result(f)
				r["history"] = ints(r["history"])[:12]
			}
			return []map[string]any{f}
		})}},
		{"PYYOL-GOOF-RESOLVE", server.Options{Rewrite: set("event", "round_revealed", func(f map[string]any) {
			if p := payload(f); p["winner"] != -1.0 {
				p["winner"] = flipWinner(p["winner"])
			}
		})}},
		{"PYYOL-GOOF-SEALED", server.Options{Rewrite: set("event", "card_sealed", func(f map[string]any) { payload(f)["card"] = 7 })}},
		{"PYYOL-GOOF-WINNER", server.Options{Rewrite: set("game_end", "", func(f map[string]any) { r := result(f); r["winner"] = flipWinner(r["winner"]) })}},
		{"PYYOL-GOOF-EVENTS", server.Options{Rewrite: frameEdit("event", "match_created", func(f map[string]any) []map[string]any {
			return []map[string]any{f, {"t": "event", "match_id": f["match_id"], "seq": f["seq"], "type": "bonus_round", "payload": map[string]any{}}}
		})}},
		{"PYYOL-GOOF-COMMITMENT", server.Options{Rewrite: set("event", "match_created", func(f map[string]any) { delete(payload(f), "commitment") })}},
		{"PYYOL-GOOF-SHUFFLED", server.Options{Rewrite: server.EveryFrame(func(f map[string]any) []map[string]any {
			switch {
			case f["t"] == "event" && evType(f) == "match_created":
				payload(f)["commitment"] = sha(fakeSeed)
			case f["t"] == "game_end":
				result(f)["reveal"] = hex.EncodeToString(fakeSeed)
			}
			return []map[string]any{f}
		})}},
		{"PYYOL-GOOF-OPEN", server.Options{Tamper: server.FakeOpen}},
		{"PYYOL-GOOF-TIE-CARRY", server.Options{Rewrite: set("event", "round_revealed", func(f map[string]any) { p := payload(f); p["prize_pool"] = p["prize"] })}},
		{"PYYOL-GOOF-TIE-SPLIT", server.Options{Rewrite: set("event", "round_revealed", func(f map[string]any) { p := payload(f); p["prize_pool"] = p["prize"] })}},
	}
}

// runLive runs one protocol's checks of rule against a live target.
// runLive checks target live as `conformance run --target` would, with
// the protocol flag values in settings.
func runLive(t *testing.T, p *suite.Protocol, target, rule string, settings suite.Settings) *verdict.Report {
	t.Helper()
	cfg := suite.Config{Protocols: []*suite.Protocol{p}, Target: target,
		Rules: ruleList(rule), Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: settings}
	if rule != "" {
		cfg = cfg.StoppingAt(rule) // one failure naming the rule is the verdict
	}
	rep, err := suite.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func ruleList(rule string) []string {
	if rule == "" {
		return nil
	}
	return []string{rule}
}

func failedRules(rep *verdict.Report) []string {
	var out []string
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			out = append(out, string(r.Status)+" "+r.FailedRule+": "+r.Message)
		}
	}
	return out
}

// catchBrokenGateways serves each broken gateway over loopback, its turns
// timing out after turnTimeout (which the runner is told, --turn-timeout),
// checks it live and requires a fail naming the rule it breaks.
func catchBrokenGateways(t *testing.T, cases []struct {
	rule string
	opts server.Options
}, turnTimeout time.Duration) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			catchGateway(t, c.rule, c.opts, turnTimeout)
		})
	}
}

// TestBrokenGatewaysFailTheirRule: each broken gateway, served over
// loopback and checked live, fails with the rule it breaks named.
func TestBrokenGatewaysFailTheirRule(t *testing.T) {
	t.Parallel()
	catchBrokenGateways(t, brokenGateways(), 600*time.Millisecond)
}

// TestHealthyGatewayPassesLive: the unmodified reference, checked live over
// loopback with a WebSocket target URL, passes every check. The runner is
// told the gateway's 600 ms turn timeout, so an answer a loaded machine
// sends later decides nothing, and a healthy match is never taken for a
// wedged one (--frame-wait 20s: no scenario here waits for silence).
func TestHealthyGatewayPassesLive(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{TurnTimeout: 600 * time.Millisecond}))
	defer srv.Close()
	target := "ws" + srv.URL[len("http"):] + "/v1/agent/connect"
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: target,
		Seed: 7, NoProperties: true, CaseDir: t.TempDir(),
		Settings: suite.Settings{"admin-token": server.AdminToken, "turn-timeout": "600ms", "frame-wait": "20s"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 || len(notLongSkips(failedRules(rep))) > 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}

// TestGatewayThatSchedulesNoMatchSkips: when matches start is the
// platform's choice, so a gateway that starts none within --deadline makes
// the match checks skip, never fail.
func TestGatewayThatSchedulesNoMatchSkips(t *testing.T) {
	t.Parallel()
	quiet := func(f map[string]any) []map[string]any {
		switch f["t"] {
		case "hello", "registered", "error", "pong":
			return []map[string]any{f}
		}
		return nil
	}
	srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(quiet)}))
	defer srv.Close()
	rep := runLive(t, pyyol.Gateway(), srv.URL, "PYYOL-WS-GAME-END", suite.Settings{"match-wait": "500ms", "frame-wait": "300ms"})
	if len(rep.Results) == 0 {
		t.Fatal("nothing ran")
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Skip {
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		}
	}
}

// TestPingingGatewayWithoutMatchSkipsWithinMatchWait: waits are absolute.
// A gateway that pings every 100 ms and never starts a match makes the
// match checks skip once --match-wait has passed; its heartbeats, each a
// frame, do not restart the wait (they did: a real gateway's 15 s pings
// held a scenario for over 20 minutes).
func TestPingingGatewayWithoutMatchSkipsWithinMatchWait(t *testing.T) {
	t.Parallel()
	pingsOnly := func(f map[string]any) []map[string]any {
		switch f["t"] {
		case "hello", "registered", "error", "pong", "ping":
			return []map[string]any{f}
		}
		return nil
	}
	srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(pingsOnly), PingEvery: 100 * time.Millisecond}))
	defer srv.Close()
	const matchWait = 800 * time.Millisecond
	rep := runLive(t, pyyol.Gateway(), srv.URL, "PYYOL-WS-GAME-END", suite.Settings{"match-wait": matchWait.String(), "frame-wait": "300ms"})
	if len(rep.Results) == 0 {
		t.Fatal("nothing ran")
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Skip {
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		}
		// A bound on the wait itself, not a speed target: the scenario
		// ended because --match-wait ran out, not because the run did.
		if r.Duration > 20*matchWait {
			t.Errorf("%s waited %v with --match-wait %v", r.Name, r.Duration, matchWait)
		}
	}
}
