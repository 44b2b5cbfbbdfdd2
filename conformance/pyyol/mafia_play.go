package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// mafiaSeat is the seat the runner asks for in Mafia practice
// (PYYOL-MAFIA-REF-PRACTICE); a platform may seat the agent elsewhere and
// the checks follow the seat the views name.
const mafiaSeat = 11

// mafiaTurnCap bounds the agent's turns in one match: twelve days of a
// night action, a message and a vote each, twice over. A match that
// asks for more never reaches its result.
const mafiaTurnCap = 12 * 3 * 2

// mafiaView is a Mafia turn view read loosely, with its raw object so a
// check can tell a missing field from a zero one.
type mafiaView struct {
	YourSeat int            `json:"your_seat"`
	YourRole string         `json:"your_role"`
	Day      int            `json:"day"`
	Phase    string         `json:"phase"`
	Alive    map[string]any `json:"alive"`
	Allies   []int          `json:"allies"`
	Legal    []string       `json:"legal"`
	Public   []mafiaEvent   `json:"public"`
	Private  []mafiaEvent   `json:"private"`
	raw      map[string]any
	text     string
}

// mafiaEvent is one transcript event, from an event frame or a view.
type mafiaEvent struct {
	Seq     int            `json:"seq"`
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload"`
}

// mafiaTurn is one turn the agent got: its view, what it answered (nil
// when it answered nothing or something illegal on purpose, or when the
// answer may have come after the gateway's timeout) and the event seq
// reached when it arrived.
type mafiaTurn struct {
	view     mafiaView
	answered *mafia.Move
	seenSeq  int
}

// mafiaMatch is one Mafia match as the agent saw it.
type mafiaMatch struct {
	role   string // asked for
	first  string // how the first turn is answered: answer, silent, illegal; tie: answered, and votes make ties
	seat   int
	turns  []mafiaTurn
	events []mafiaEvent
	end    map[string]any
	missed bool // the first turn was missed or illegal on purpose
	// clock forgets answers that may have come after the gateway's
	// timeout (monopoly_late.go).
	clock answerClock
}

// playMafia registers for Mafia practice and plays one match to game_end.
func (g *gwRun) playMafia(ctx context.Context, role, first string) (*mafiaMatch, error) {
	mm := &mafiaMatch{role: role, first: first, seat: -1}
	mm.clock.registered(g.env)
	if err := g.registerMafia(ctx, role); err != nil {
		return nil, err
	}
	started := false
	for mm.end == nil {
		f, err := g.nextOf(ctx, started)
		if err != nil {
			return mm, mm.blame(err)
		}
		started = started || f.T == "initialize" || f.T == "turn" || f.T == "event"
		if followsAnswer(f.T) {
			mm.clock.followed()
		}
		if err := g.onMafiaFrame(ctx, mm, f); err != nil {
			return mm, err
		}
	}
	mm.clock.note(g.env, len(mm.turns))
	if !slices.ContainsFunc(mm.turns, func(t mafiaTurn) bool { return len(t.view.Legal) > 0 }) {
		// The seat died before it owed a move: nothing of the seat's play to judge.
		return nil, verdict.Skipf("the agent's seat %d was never asked for a move (eliminated early)", mm.seat)
	}
	return mm, nil
}

// blame names the rule a wedged match breaks: the fallback right after a
// missed turn, else the terminal result (PYYOL-MAFIA-RESULT).
func (mm *mafiaMatch) blame(err error) error {
	var f *verdict.Failure
	if !errors.As(err, &f) {
		return err
	}
	rule := "PYYOL-MAFIA-RESULT"
	if mm.missed && len(mm.turns) == 1 {
		rule = "PYYOL-MAFIA-FALLBACK"
	}
	return verdict.Failf(rule, "the match goes on to game_end", f.Observed, "%s", f.Detail)
}

// registerMafia runs the handshake asking for a Mafia practice seat.
func (g *gwRun) registerMafia(ctx context.Context, role string) error {
	hello, err := g.greet(ctx)
	if err != nil {
		return err
	}
	if hello.T != "hello" {
		return verdict.Failf("PYYOL-WS-HELLO", `{"t":"hello"}`, string(hello.wire), "the first frame")
	}
	reg := map[string]any{"t": "register", "agent_id": g.agentID, "token": g.token, "agent_name": "conformance-kit",
		"version": "1.0.0", "games": []string{"mafia"}, "sdk_version": "conformance",
		"practice": map[string]any{"seat": mafiaSeat, "role": role}}
	if err := g.ws.Send(ctx, reg); err != nil {
		return err
	}
	for {
		f, err := g.next(ctx, "registered or error")
		if err != nil {
			return err
		}
		switch f.T {
		case "ping":
			g.ws.Send(ctx, pongFor(f))
		case "registered":
			return nil
		default:
			return verdict.Skipf("the gateway did not register the agent for Mafia: %s", string(f.wire))
		}
	}
}

// onMafiaFrame handles one frame of the match.
func (g *gwRun) onMafiaFrame(ctx context.Context, mm *mafiaMatch, f frame) error {
	switch f.T {
	case "ping":
		return g.ws.Send(ctx, pongFor(f))
	case "initialize":
		if f.Seat != nil {
			mm.seat = *f.Seat
		}
		mm.clock.answering(nil)
		return g.ws.Send(ctx, readyResponse(f.ID))
	case "event":
		var p map[string]any
		json.Unmarshal(f.Payload, &p)
		mm.events = append(mm.events, normalizeMafiaEvent(mafiaEvent{Seq: f.Seq, Type: f.Type, Payload: p}))
	case "game_end":
		mm.end = map[string]any{}
		var res map[string]any
		json.Unmarshal(f.Result, &res)
		mm.end = res
		if mm.end == nil {
			mm.end = map[string]any{}
		}
	case "turn":
		return g.onMafiaTurn(ctx, mm, f)
	}
	return nil
}

// onMafiaTurn records a turn and answers it as the scenario says.
func (g *gwRun) onMafiaTurn(ctx context.Context, mm *mafiaMatch, f frame) error {
	var v mafiaView
	json.Unmarshal(f.Body, &v)
	json.Unmarshal(f.Body, &v.raw)
	v.text = string(f.Body)
	v.Public, v.Private = normalizeMafiaEvents(v.Public), normalizeMafiaEvents(v.Private)
	if mm.seat < 0 {
		mm.seat = v.YourSeat
	}
	t := mafiaTurn{view: v, seenSeq: lastSeq(mm.events)}
	if len(mm.turns) >= mafiaTurnCap {
		return verdict.Failf("PYYOL-MAFIA-RESULT", "a match that reaches result", fmt.Sprintf("%d turns", len(mm.turns)), "the match never ended")
	}
	first := len(mm.turns) == 0 && len(v.Legal) > 0
	mm.turns = append(mm.turns, t)
	switch {
	case first && mm.first == "silent":
		mm.missed = true
		return nil
	case first && mm.first == "illegal":
		mm.missed = true
		mm.clock.answering(nil)
		return g.ws.Send(ctx, moveResponse(f.ID, map[string]any{"action": "dance", "target": 99}))
	}
	mv := mafiaPolicy(v)
	if tv, ok := tieVote(v); ok && mm.first == "tie" {
		mv = tv
	}
	if rv, ok := refereeMafiaMove(v); ok && mm.first == "referee" {
		mv = rv // referee_mafia.go
	}
	i := len(mm.turns) - 1
	mm.turns[i].answered = &mv
	mm.clock.answering(func() { mm.turns[i].answered = nil })
	return g.ws.Send(ctx, moveResponse(f.ID, mv))
}

// mafiaPolicy is the runner's own play: the Doctor protects itself
// (PYYOL-MAFIA-PROTECT-SELF), messages name the seat, everything else is
// the kit's baseline.
func mafiaPolicy(v mafiaView) mafia.Move {
	if len(v.Legal) == 0 {
		return mafia.Move{}
	}
	alive := map[string]bool{}
	for k, ok := range v.Alive {
		alive[k] = ok == true
	}
	mv := mafia.Baseline(mafia.View{YourSeat: v.YourSeat, YourRole: v.YourRole, Alive: alive, Allies: v.Allies, Legal: v.Legal})
	if mv.Action == mafia.ActMessage {
		mv.Tone, mv.Text = "info", fmt.Sprintf("Seat %d, day %d: watching.", v.YourSeat, v.Day)
	}
	return mv
}

func lastSeq(events []mafiaEvent) int {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Seq
}
