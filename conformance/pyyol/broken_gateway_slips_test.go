package pyyol_test

import (
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlip is one realistic implementer's bug of the gateway: what it
// is, the rule a live run must fail for it, the frames it rewrites, and
// the turn timeout its game's checks are run with.
type gatewaySlip struct {
	name, rule string
	rewrite    server.Rewrite
	timeout    time.Duration
}

// The turn timeouts of the slips' runs: Goofspiel and Mafia as their
// older tables run them, Monopoly's long enough that no scenario waits
// one out on a loaded machine.
const (
	quickTurns = 600 * time.Millisecond
	monoTurns  = 10 * time.Second
)

// gatewaySlips are bugs an implementer of the runtime docs would
// plausibly write, none of them in the older tables (docs/detection.md
// keeps their tally): a round or a seat counted from 1, a score or a hand
// read before the round resolved, a player among its own allies, a vote
// written the wrong way round, a transcript or a view short of what the
// docs list, a salary missed on GO itself, an action listed that is not
// valid, an error code of its own, a version spelled otherwise, seq
// numbers restarting.
func gatewaySlips() []gatewaySlip {
	return append([]gatewaySlip{
		{"history's scores as they stood before the round", "PYYOL-GOOF-HISTORY", goofView(func(v map[string]any) {
			prev := []any{0.0, 0.0}
			for _, h := range ints(v["history"]) {
				e := h.(map[string]any)
				e["scores"], prev = prev, e["scores"].([]any)
			}
		}), quickTurns},
		{"the view's round counted from 1", "PYYOL-GOOF-VIEW", goofView(func(v map[string]any) { v["round"] = v["round"].(float64) + 1 }), quickTurns},
		{"the view's scores one round behind", "PYYOL-GOOF-VIEW", goofView(func(v map[string]any) {
			if h := ints(v["history"]); len(h) > 1 {
				v["scores"] = h[len(h)-2].(map[string]any)["scores"]
			} else if len(h) == 1 {
				v["scores"] = []any{0.0, 0.0}
			}
		}), quickTurns},
		{"the hand still holds the card bid last round", "PYYOL-GOOF-RESOLVE", goofView(func(v map[string]any) {
			if h := ints(v["history"]); len(h) > 0 {
				card := h[len(h)-1].(map[string]any)["your_card"]
				if !slices.Contains(ints(v["your_hand"]), card) {
					v["your_hand"], v["legal_actions"] = append(ints(v["your_hand"]), card), append(ints(v["legal_actions"]), card)
				}
			}
		}), quickTurns},
		{"game_end's winner as a 1-based seat", "PYYOL-GOOF-WINNER", set("game_end", "", func(f map[string]any) {
			if r := result(f); gameOf(f) != "mafia" && gameOf(f) != "monopoly" && r["winner"] != -1.0 {
				r["winner"] = r["winner"].(float64) + 1
			}
		}), quickTurns},
		{"a Mafia seat among its own allies", "PYYOL-MAFIA-ALLIES", ofRole("Mafia", func(v map[string]any) {
			v["allies"] = append(ints(v["allies"]), v["your_seat"])
		}), quickTurns},
		{"vote events written target first", "PYYOL-MAFIA-VOTE", set("event", "vote", func(f map[string]any) {
			p := payload(f)
			p["from"], p["target"] = p["target"], p["from"]
		}), quickTurns},
		{"alive keyed by 1-based seats", "PYYOL-MAFIA-VIEW", mafiaView(func(v map[string]any) {
			alive := map[string]any{}
			for s, ok := range v["alive"].(map[string]any) {
				n, _ := strconv.Atoi(s)
				alive[strconv.Itoa(n+1)] = ok
			}
			v["alive"] = alive
		}), quickTurns},
		{"the public transcript holds only the messages", "PYYOL-MAFIA-TRANSCRIPT", mafiaView(func(v map[string]any) {
			v["public"] = slices.DeleteFunc(ints(v["public"]), func(e any) bool { return evType(e.(map[string]any)) != "message" })
		}), quickTurns},
		{"a roll landing exactly on GO pays no salary", "PYYOL-MONO-ECONOMY", noSalaryOnGo(), monoTurns},
		{"unmortgage listed with nothing mortgaged", "PYYOL-MONO-VIEW-LEGAL", monoView(func(v map[string]any) {
			mortgaged := false
			for _, h := range ints(v["state"].(map[string]any)["holdings"]) {
				h := h.(map[string]any)
				mortgaged = mortgaged || h["owner"] == v["seat"] && h["mortgaged"] == true
			}
			if v["phase"] == "manage" && !mortgaged && !slices.Contains(ints(v["legal_actions"]), "unmortgage") {
				v["legal_actions"] = append(ints(v["legal_actions"]), "unmortgage")
			}
		}), monoTurns},
		{"the view's cash from before the landing's payments", "PYYOL-MONO-VIEW-STATE", cashBeforePayments(), monoTurns},
		{"a rejected token answered invalid_token", "PYYOL-WS-UNAUTHORIZED", set("error", "", func(f map[string]any) {
			if f["error"] == "unauthorized" {
				f["error"] = "invalid_token"
			}
		}), quickTurns},
		{"hello's version spelled 1.0.0", "PYYOL-WS-HELLO", set("hello", "", func(f map[string]any) { f["version"] = "1.0.0" }), quickTurns},
		{"event seq restarting after each turn", "PYYOL-WS-EVENT-SEQ", seqPerTurn(), quickTurns},
		// Round 2: gatewaySlipsRound2 in broken_gateway_slips_round2_test.go;
		// round 3: gatewaySlipsRound3 in broken_gateway_slips_round3_test.go;
		// round 4: gatewaySlipsRound4 in broken_gateway_slips_round4_test.go;
		// Round 5: gatewaySlipsRound5 in broken_gateway_slips_round5_test.go;
		// Round 6: gatewaySlipsRound6 in broken_gateway_slips_round6_test.go;
		// Round 7: gatewaySlipsRound7 in broken_gateway_slips_round7_test.go.
	}, slices.Concat(gatewaySlipsRound2(), gatewaySlipsRound3(), gatewaySlipsRound4(), gatewaySlipsRound5(), gatewaySlipsRound6(), gatewaySlipsRound7())...)
}

// goofView, mafiaView and monoView edit the turn views of one game.
func goofView(edit func(v map[string]any)) server.Rewrite  { return gameView("goofspiel", edit) }
func mafiaView(edit func(v map[string]any)) server.Rewrite { return gameView("mafia", edit) }
func monoView(edit func(v map[string]any)) server.Rewrite  { return gameView("monopoly", edit) }

func gameView(game string, edit func(v map[string]any)) server.Rewrite {
	return set("turn", "", func(f map[string]any) {
		if g := gameOf(f); g == game || game == "goofspiel" && g == nil {
			edit(view(f))
		}
	})
}

// noSalaryOnGo pays the salary only when a roll wraps past GO, not when
// it lands on GO itself (from+dice > 40 where >= 40 was meant): the
// landing's moved event says passed_go false and its salary is not sent.
func noSalaryOnGo() server.Rewrite {
	var mu sync.Mutex
	onGo := map[any]bool{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		if f["t"] != "event" {
			return []map[string]any{f}
		}
		mu.Lock()
		defer mu.Unlock()
		p, _ := f["payload"].(map[string]any)
		switch evType(f) {
		case "moved":
			onGo[f["match_id"]] = p["to"] == 0.0 && p["from"] != 0.0
			if onGo[f["match_id"]] {
				p["passed_go"] = false
			}
		case "cash_changed":
			if p["reason"] == "go_salary" && onGo[f["match_id"]] {
				onGo[f["match_id"]] = false
				return nil
			}
		}
		return []map[string]any{f}
	})
}

// cashBeforePayments shows, in each Monopoly turn view, every seat's cash
// less the money it received or paid since the previous turn frame: a
// view built from a snapshot taken before the landing was resolved.
func cashBeforePayments() server.Rewrite {
	var mu sync.Mutex
	since := map[int]float64{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		p, _ := f["payload"].(map[string]any)
		switch {
		case f["t"] == "event" && evType(f) == "cash_changed":
			since[seatOf(p["seat"])] += num(p["delta"])
		case f["t"] == "event" && evType(f) == "rent_paid":
			since[seatOf(p["from"])] -= num(p["amount"])
			since[seatOf(p["to"])] += num(p["amount"])
		case f["t"] == "turn" && gameOf(f) == "monopoly":
			for i, pl := range ints(view(f)["state"].(map[string]any)["players"]) {
				pl := pl.(map[string]any)
				pl["cash"] = num(pl["cash"]) - since[i]
			}
			clear(since)
		}
		return []map[string]any{f}
	})
}

// seqPerTurn numbers each match's events from 1 again after every turn
// frame: a counter kept per decision instead of per match.
func seqPerTurn() server.Rewrite {
	var mu sync.Mutex
	next := map[any]float64{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		switch f["t"] {
		case "turn":
			clear(next)
		case "event":
			next[f["match_id"]]++
			f["seq"] = next[f["match_id"]]
		}
		return []map[string]any{f}
	})
}

func num(v any) float64 { f, _ := v.(float64); return f }
func seatOf(v any) int  { return int(num(v)) }

// catchGateway serves one broken gateway over loopback, its turns timing
// out after turnTimeout (which the runner is told, --turn-timeout), checks
// it live and requires a fail naming rule.
func catchGateway(t *testing.T, rule string, opts server.Options, turnTimeout time.Duration) {
	t.Helper()
	rep := liveGateway(t, rule, opts, turnTimeout)
	if rep.ExitCode() != 1 || !rep.Failed(rule) {
		t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), rule, failedRules(rep))
	}
}

// liveGateway serves the reference gateway with opts and runs rule's
// checks live against it.
func liveGateway(t *testing.T, rule string, opts server.Options, turnTimeout time.Duration) *verdict.Report {
	t.Helper()
	opts.TurnTimeout = turnTimeout
	srv := httptest.NewServer(server.New(opts))
	defer srv.Close()
	return runLive(t, pyyol.Gateway(), srv.URL, rule, gatewaySettings.With("turn-timeout", turnTimeout.String()))
}

// gatewayTamper is the engine defect a slip of the later rounds plants,
// or none.
func gatewayTamper(name string) server.Tamper {
	if t, ok := gatewayTampersRound3[name]; ok {
		return t
	}
	return gatewayTampersRound4[name]
}

// TestImplementerSlipsAreCaught: each realistic bug of gatewaySlips,
// planted alone in front of the reference gateway, served over loopback
// and checked live with only its rule selected, fails naming that rule.
func TestImplementerSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, c := range gatewaySlips() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			catchGateway(t, c.rule, server.Options{Rewrite: c.rewrite, Tamper: gatewayTamper(c.name)}, c.timeout)
		})
	}
}

// faithfulGateways take readings the runtime docs leave open next to the
// slips: allies that leave a dead Mafia seat out (the docs say only
// "fellow Mafia seats"), an unauthorized error with a reason beside it,
// a hello with a server name, and every frame with a timestamp.
func faithfulGateways() []gatewaySlip {
	return append([]gatewaySlip{
		{"allies without the dead Mafia seats", "PYYOL-MAFIA-ALLIES", ofRole("Mafia", func(v map[string]any) {
			alive := v["alive"].(map[string]any)
			v["allies"] = slices.DeleteFunc(ints(v["allies"]), func(s any) bool { return alive[strconv.Itoa(seatOf(s))] != true })
		}), quickTurns},
		{"an unauthorized error with a reason", "PYYOL-WS-UNAUTHORIZED", set("error", "", func(f map[string]any) { f["reason"] = "unknown agent key" }), quickTurns},
		{"hello with the server's name", "PYYOL-WS-HELLO", set("hello", "", func(f map[string]any) { f["server"] = "pyyol-gateway/1.4.2" }), quickTurns},
		{"every frame with a timestamp", "PYYOL-WS-EVENT-SEQ,PYYOL-WS-ENVELOPE,PYYOL-GOOF-EVENTS", server.EveryFrame(func(f map[string]any) []map[string]any {
			f["ts"] = "2026-12-04T12:00:00Z"
			return []map[string]any{f}
		}), quickTurns},
		// Round 2: faithfulGatewaysRound2 in broken_gateway_slips_round2_test.go;
		// round 3: faithfulGatewaysRound3 in broken_gateway_slips_round3_test.go;
		// round 4: faithfulGatewaysRound4 in broken_gateway_slips_round4_test.go;
		// Round 5: faithfulGatewaysRound5 in broken_gateway_slips_round5_test.go;
		// Round 6: faithfulGatewaysRound6 in broken_gateway_slips_round6_test.go;
		// Round 7: faithfulGatewaysRound7 in broken_gateway_slips_round7_test.go.
	}, slices.Concat(faithfulGatewaysRound2(), faithfulGatewaysRound3(), faithfulGatewaysRound4(), faithfulGatewaysRound5(), faithfulGatewaysRound6(), faithfulGatewaysRound7())...)
}

// TestFaithfulNeighboursOfTheSlipsPass: each faithful gateway, checked
// live on its rules, fails and errs nothing and decides a check.
func TestFaithfulNeighboursOfTheSlipsPass(t *testing.T) {
	t.Parallel()
	for _, c := range faithfulGateways() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(server.New(server.Options{Rewrite: c.rewrite, TurnTimeout: c.timeout}))
			defer srv.Close()
			harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
				Rules: strings.Split(c.rule, ","), Seed: 7, NoProperties: true,
				Settings: gatewaySettings.With("turn-timeout", c.timeout.String())}, 1)
		})
	}
}
