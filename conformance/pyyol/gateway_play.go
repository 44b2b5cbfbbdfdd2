package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// frame is the runner's model of a gateway frame, filled by decodeFrame
// (frames_read.go) from whichever layout the target uses; checks read
// these fields, never the wire's names. Game is read as a name only when
// a string; Type and Payload are an event's; Body is a turn's view, an
// initialize's fields or a game_end's result, View the Body of a turn
// read as a Goofspiel view, Result the Body of a game_end.
type frame struct {
	T       string
	ID      string
	AgentID string
	Version string
	Error   string
	MatchID string
	Game    json.RawMessage
	Seat    *int
	Seq     int
	Type    string
	Payload json.RawMessage
	Body    json.RawMessage
	View    *goofspiel.View
	Result  json.RawMessage
	// wire is the frame as it came, for transcripts and failure
	// messages only (archtest: a check reads the model, never the wire).
	wire json.RawMessage
	// decoded holds Payload decoded, once (payload): a Monopoly referee
	// reads every event's payload in several checks.
	decoded *decodedPayload
	// tree is the whole frame as decodeJSON read it, when the reader kept
	// it (a Monopoly turn's, for the referee's search by value).
	tree any
}

// gwRun is one gateway scenario: the kit as an agent.
type gwRun struct {
	suite.Scenario[suite.NoState]
	env     *suite.Env
	agentID string
	token   string
	// dashboard is the owner's dashboard JWT the mint gave, if any
	// (PYYOL-REF-DASHBOARD-JWT).
	dashboard string
	// jwtAnswer is the answer to a register by dashboard JWT.
	jwtAnswer *frame
	practice  map[string]any
	ws        *driver.WS
	frames    []frame
	turns     []frame
	events    []frame
	inits     []frame
	end       *frame
	pongs     int
	pings     int // the agent's pings sent (behaviour.ping)
	refusal   error
	seat      int
	answered  []goofspiel.Move
	// stray is the card of a round-0 response that must not count (late,
	// under another id, for another round), 0 if none was sent.
	stray int
	// game is the game of the match under way, from its frames.
	game string
	// round0 is how the agent answers round 0 in this scenario (a value of
	// the round0 table); it names the rule a round-0 failure breaks.
	round0 string
	// readings are the frame layouts off the reference's already noted.
	readings map[string]bool
	// progress is when the last frame that was no heartbeat came;
	// matchWait, when set, is when the wait for a match runs out
	// (waits.go).
	progress, matchWait time.Time
	// inMatch is set while a match runs on the socket: from its
	// initialize or first turn to its game_end.
	inMatch bool
}

// round0Rules names, per round-0 behaviour, the rule the gateway breaks
// when round 0 does not end as that behaviour requires.
var round0Rules = map[string]string{
	"answer":      "PYYOL-WS-CORRELATION",
	"silent":      "PYYOL-WS-FALLBACK-TIMEOUT",
	"illegal":     "PYYOL-WS-FALLBACK-ILLEGAL",
	"error":       "PYYOL-WS-FALLBACK-ERROR",
	"late":        "PYYOL-WS-LATE-RESPONSE",
	"other-id":    "PYYOL-WS-CORRELATION",
	"wrong-round": "PYYOL-GOOF-MOVE",
	"drop":        "PYYOL-WS-FALLBACK-DISCONNECT",
}

// round0Rule is the rule this scenario's round-0 behaviour checks.
func (g *gwRun) round0Rule() string {
	if rule, ok := round0Rules[g.round0]; ok {
		return rule
	}
	return round0Rules["answer"]
}

// next reads one frame; silence past the wait limit is the gateway's
// failure (a wedged match), blamed on the scenario's rule. The limit is
// counted from the last frame that was no heartbeat (waits.go), so a
// gateway that only pings still wedges.
func (g *gwRun) next(ctx context.Context, waitingFor string) (frame, error) {
	raw, err := g.read(ctx, g.frameBy())
	if err != nil {
		if errors.Is(err, driver.ErrTimeout) {
			rule := "" // a wedged plain match: the scenario's own rule
			if g.round0 != "" && g.round0 != "answer" {
				// The round-0 behaviour's fallback rule: "the match goes on to game_end".
				rule = g.round0Rule()
			}
			if _, last := g.roundOf(g.rules().Cards - 1); last && g.end == nil {
				// PYYOL-WS-GAME-END: every round resolved, no game_end came.
				rule = "PYYOL-WS-GAME-END"
			}
			return frame{}, verdict.Failf(rule, waitingFor, "silence for "+waitLimit(g.env).String(), "the gateway sent nothing: the match wedged")
		}
		return frame{}, err
	}
	return g.accept(raw)
}

// accept decodes and keeps one frame, checking it against its schema.
func (g *gwRun) accept(raw json.RawMessage) (frame, error) {
	f, readings, err := decodeFrame(raw)
	if err != nil {
		return frame{}, err
	}
	g.touch(f)
	g.layoutNote(readings)
	g.frames = append(g.frames, f)
	// The game a frame names, read with the envelope; a name that is no
	// string leaves the known game (the frame's schema judges it).
	var game string
	if json.Unmarshal(f.Game, &game) == nil && game != "" {
		g.game = game
	}
	// A frame that does not fit spec/pyyol/frames is a finding under the
	// rule its schema names: a MUST rule of the Mafia view or events fails
	// the check once its steps are done (their own verdict, naming the
	// same rules, comes first), the kit's own layout (PYYOL-REF-FRAMES)
	// warns.
	g.env.HTTP.Recorder().Finding(checkFrameOf(raw, f.T, g.game))
	return f, nil
}

// nextOf reads the next frame of a match. Before the match has started,
// silence until the match deadline means the platform scheduled no match
// for the agent: a skip, since when matches start is the platform's
// choice (PYYOL-REF-SANDBOX-MATCH); heartbeats meanwhile do not move that
// deadline. After it started, silence is a wedge.
func (g *gwRun) nextOf(ctx context.Context, started bool) (frame, error) {
	if started {
		return g.next(ctx, "the next frame of the match")
	}
	raw, err := g.read(ctx, g.matchBy(ctx))
	if errors.Is(err, driver.ErrTimeout) {
		return frame{}, verdict.Skipf("no match started for the agent within %v (--match-wait, or --deadline)", matchDeadline(g.env))
	}
	if err != nil {
		return frame{}, err
	}
	return g.accept(raw)
}

// register runs the handshake on a fresh socket.
func (g *gwRun) register(ctx context.Context, token string) (frame, error) {
	hello, err := g.greet(ctx) // PYYOL-WS-HELLO, decided once for the run
	if err != nil {
		return frame{}, err
	}
	if hello.T != "hello" || hello.Version != "1.0" {
		return frame{}, verdict.Failf("PYYOL-WS-HELLO", `{"t":"hello","version":"1.0"}`, string(hello.wire), "the first frame")
	}
	reg := map[string]any{"t": "register", "agent_id": g.agentID, "token": token, "agent_name": "conformance-kit",
		"version": "1.0.0", "games": []string{"goofspiel"}, "sdk_version": "conformance"}
	if g.practice != nil {
		reg["practice"] = g.practice
	}
	if err := g.ws.Send(ctx, reg); err != nil {
		return frame{}, err
	}
	for {
		f, err := g.next(ctx, "registered or error")
		if err != nil && g.closed() {
			// A socket the gateway closed instead of answering register.
			return frame{T: "closed", wire: json.RawMessage(`"the socket closed"`)}, nil
		}
		if err != nil || f.T != "ping" {
			return f, err
		}
		g.ws.Send(ctx, pongFor(f))
	}
}

// behaviour says how the agent answers round 0; every other turn is
// answered with the lowest card but one when it can (so a fallback is
// visible as the lowest card), or the prize card when bidPrize.
type behaviour struct {
	round0   string // answer, silent, illegal, error, late, other-id, wrong-round, drop
	bidPrize bool
	usage    bool
	ping     bool
	lose     bool // bid the lowest card every round, to lose to the baseline
	rounds   bool // bid roundsBid: more rounds won, fewer points (PYYOL-GOOF-WINNER)
}

// manyRoundsFewPoints is the behaviour whose bids (roundsBid) win more
// rounds than the baseline but fewer points.
const manyRoundsFewPoints = "answering every turn for more rounds but fewer points"

// roundsBid is the bid for each prize against the baseline, which bids
// the prize card itself (PYYOL-REF-BASELINE): one more for prizes 1 to 7
// and 9, the 1 for 8, one less for 10 to 13. Its 8 rounds won hold 37
// points, the baseline's 5 hold 54, so a winner counted in rounds won
// differs from the one the totals decide (PYYOL-GOOF-WINNER); against
// another opponent the bids are only legal cards.
var roundsBid = map[int]int{1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 1, 9: 13, 10: 9, 11: 10, 12: 11, 13: 12}

// play answers frames until game_end.
func (g *gwRun) play(ctx context.Context, b behaviour) error {
	g.round0 = b.round0
	var held *frame
	if b.ping {
		if err := g.ping(ctx); err != nil {
			return err
		}
	}
	started := false
	for g.end == nil {
		f, err := g.nextOf(ctx, started)
		if err != nil {
			return err
		}
		started = started || f.T == "initialize" || f.T == "turn"
		switch f.T {
		case "ping":
			err = g.ws.Send(ctx, pongFor(f))
		case "pong":
			g.pongs++
		case "initialize":
			g.inits = append(g.inits, f)
			if f.ID == "" {
				return verdict.Failf("PYYOL-WS-INITIALIZE", "an initialize carrying an id", string(f.wire), "initialize frame")
			}
			if f.Seat != nil {
				g.seat = *f.Seat
			}
			err = g.ws.Send(ctx, readyResponse(f.ID))
		case "event":
			g.events = append(g.events, f)
			if held != nil && f.Type == goofspiel.RoundRevealed {
				// The late answer names the round now in flight, so a gateway
				// that applies it there plays the stray card, never a
				// fallback the runner must read as a timeout (timedOut).
				g.stray = lateCard(held.View)
				err = g.ws.Send(ctx, moveResponse(held.ID, goofspiel.Move{Round: held.View.Round + 1, Card: g.stray}))
				held = nil
			}
		case "game_end":
			g.end = &f
		case "turn":
			g.turns = append(g.turns, f)
			if b.ping && g.pings == 1 {
				// A second ping mid-match: every ping is answered, not the
				// first one only (PYYOL-WS-PING).
				if err := g.ping(ctx); err != nil {
					return err
				}
			}
			if f.ID == "" {
				// PYYOL-WS-TURN: a turn without an id cannot be answered.
				return verdict.Failf("PYYOL-WS-TURN", "a turn carrying an id", string(f.wire), "turn frame")
			}
			if f.View == nil {
				return verdict.Failf("PYYOL-WS-TURN", "a turn carrying a view", string(f.wire), "turn frame")
			}
			if f.View.Round == 0 && b.round0 != "answer" {
				held, err = g.misbehave(ctx, f, b.round0)
			} else {
				err = g.answer(ctx, f, b)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ping sends the agent's ping and counts it.
func (g *gwRun) ping(ctx context.Context) error {
	g.pings++
	return g.ws.Send(ctx, map[string]string{"t": "ping"})
}

// answer sends a legal move.
func (g *gwRun) answer(ctx context.Context, f frame, b behaviour) error {
	v := f.View
	if len(v.LegalActions) == 0 {
		return verdict.Failf("PYYOL-GOOF-LEGAL-ACTIONS", "the cards in hand", "no legal actions", "round %d's view", v.Round)
	}
	card := slices.Max(v.LegalActions)
	if b.bidPrize && slices.Contains(v.LegalActions, v.CurrentPrize) {
		card = v.CurrentPrize
	}
	if b.lose {
		card = slices.Min(v.LegalActions)
	}
	if c, ok := roundsBid[v.CurrentPrize]; b.rounds && ok && slices.Contains(v.LegalActions, c) {
		card = c
	}
	g.answered = append(g.answered, goofspiel.Move{Round: v.Round, Card: card})
	resp := moveResponse(f.ID, goofspiel.Move{Round: v.Round, Card: card})
	if b.usage {
		resp["usage"] = map[string]any{"provider": "kit", "model": "none", "prompt_tokens": 1, "completion_tokens": "not a number"}
	}
	return g.ws.Send(ctx, resp)
}

// misbehave answers round 0 the way the scenario asks; it returns the turn
// to answer late, if any.
func (g *gwRun) misbehave(ctx context.Context, f frame, how string) (*frame, error) {
	if len(f.View.LegalActions) == 0 {
		return nil, verdict.Failf("PYYOL-GOOF-LEGAL-ACTIONS", "the cards in hand", "no legal actions", "round 0's view")
	}
	high := slices.Max(f.View.LegalActions)
	switch how {
	case "silent":
		return nil, nil
	case "late":
		return &f, nil
	case "illegal":
		return nil, g.ws.Send(ctx, moveResponse(f.ID, goofspiel.Move{Round: 0, Card: high + 100}))
	case "error":
		return nil, g.ws.Send(ctx, map[string]any{"t": "response", "id": f.ID, "error": "handler raised"})
	case "wrong-round":
		g.stray = high
		return nil, g.ws.Send(ctx, moveResponse(f.ID, goofspiel.Move{Round: 5, Card: high}))
	case "other-id":
		g.stray = high
		return nil, g.ws.Send(ctx, moveResponse(f.ID+"-not-this-turn", goofspiel.Move{Round: 0, Card: high}))
	case "drop":
		g.ws.Close()
		reg, err := g.register(ctx, g.token)
		if err != nil {
			return nil, err
		}
		if reg.T != "registered" {
			return nil, verdict.Failf("PYYOL-WS-RECONNECT", "registered", string(reg.wire), "re-registering after a drop")
		}
		return nil, nil
	}
	return nil, verdict.Errorf("unknown round-0 behaviour %q", how)
}

// lateCard is the card a late answer to round 0 bids: the second highest,
// so that neither the fallback (lowest) nor the agent's usual answer
// (highest) can be mistaken for it.
func lateCard(v *goofspiel.View) int {
	hand := sorted(v.LegalActions)
	return hand[max(len(hand)-2, 0)]
}

// roundOf finds round n as round_revealed showed it, or, for an event the
// agent missed (events sent while it was reconnecting are lost to it), as
// game_end's full record shows it.
func (g *gwRun) roundOf(n int) (goofspiel.Round, bool) {
	for _, e := range g.events {
		var r goofspiel.Round
		if e.Type == goofspiel.RoundRevealed && json.Unmarshal(e.Payload, &r) == nil && r.Round == n {
			return r, true
		}
	}
	var res goofspiel.Result
	if g.end != nil && json.Unmarshal(g.end.Result, &res) == nil {
		for _, r := range res.History {
			if r.Round == n {
				return r, true
			}
		}
	}
	return goofspiel.Round{}, false
}

func describe(v any) string { b, _ := json.Marshal(v); return fmt.Sprint(string(b)) }

func jsonInto(raw json.RawMessage, v any) error { return json.Unmarshal(raw, v) }
