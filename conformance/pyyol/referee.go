package pyyol

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// Pusher sends one push request; *driver.SignedHTTP is one.
type Pusher interface {
	Do(ctx context.Context, req driver.Request) (*driver.Response, error)
}

// Referee plays the platform for a full Goofspiel match against a push
// endpoint: the agent holds seat 0, the kit's baseline seat 1. Every move
// is refereed locally and an illegal one fails loudly (PUSH-LEGAL-MOVES),
// as the docs' `simulate` does. Sent keeps every body it pushed.
type Referee struct {
	Push  Pusher
	Seed  uint64
	Sent  []map[string]any
	Moves []goofspiel.Move
	// Note receives the warnings, findings that end nothing (nil: dropped).
	Note func(error)
	// TurnPath is the turn handler's path beside the other routes
	// (PushRoutes; empty: "/turn").
	TurnPath string
	// answers reads the agent's /turn answers (push_answers.go).
	answers answerReader
}

// turnPath is where the turns are POSTed: the endpoint.url itself.
func (r *Referee) turnPath() string {
	if r.TurnPath == "" {
		return "/turn"
	}
	return r.TurnPath
}

// readMove is the agent's answer as the bare move of game (answerReader).
func (r *Referee) readMove(game string, body []byte) []byte { return r.answers.read(game, body) }

// noteReadings passes on, once per match, the readings of the open points
// the agent's answers took (at most a PYYOL-REF-PUSH-BODIES warning).
func (r *Referee) noteReadings() {
	if err := r.answers.finding(); err != nil {
		r.note(err)
	}
}

// note passes a warning to Note, if any.
func (r *Referee) note(err error) {
	if r.Note != nil {
		r.Note(err)
	}
}

// MatchSeed derives a match seed from the run seed.
func MatchSeed(seed uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	sum := sha256.Sum256(append([]byte("pyyol-push-match"), b[:]...))
	return sum[:]
}

// Play runs the match to the end and returns its result.
func (r *Referee) Play(ctx context.Context) (goofspiel.Result, error) {
	m, err := goofspiel.New(goofspiel.Standard(), MatchSeed(r.Seed))
	if err != nil {
		return goofspiel.Result{}, verdict.Errorf("%v", err)
	}
	matchID := fmt.Sprintf("mt_kit_%d", r.Seed)
	if err := r.ack(ctx, "/initialize", "PYYOL-PUSH-INITIALIZE", initializeBody(matchID, "goofspiel", 0, "", 2, m.Rules())); err != nil {
		return goofspiel.Result{}, err
	}
	sent := 0
	for !m.Done() {
		if sent, err = r.events(ctx, m, matchID, sent); err != nil {
			return goofspiel.Result{}, err
		}
		view := m.View(0)
		mv, err := r.turn(ctx, matchID, view)
		if err != nil {
			return goofspiel.Result{}, err
		}
		if err := m.Bid(0, mv); err != nil {
			return goofspiel.Result{}, verdict.Failf("PYYOL-PUSH-LEGAL-MOVES", "a legal move for round "+fmt.Sprint(m.Round()),
				mv, "the agent's move is illegal: %v", err)
		}
		r.Moves = append(r.Moves, mv)
		m.Bid(1, Opponent(m.View(1)))
	}
	if _, err := r.events(ctx, m, matchID, sent); err != nil {
		return goofspiel.Result{}, err
	}
	res := m.Result()
	r.noteReadings()
	return res, r.ack(ctx, "/game-end", "PYYOL-PUSH-GAME-END-ACK", gameEndBody(matchID, "goofspiel", res))
}

// events pushes the events after seq sent and returns the new last seq.
func (r *Referee) events(ctx context.Context, m *goofspiel.Match, matchID string, sent int) (int, error) {
	for _, e := range m.EventsAfter(sent) {
		if err := r.ack(ctx, "/event", "PYYOL-PUSH-EVENT-ACK", eventBody(matchID, "goofspiel", e.Seq, e.Type, e.Payload)); err != nil {
			return sent, err
		}
	}
	return m.LastSeq(), nil
}

// turn asks for a move and decodes it.
func (r *Referee) turn(ctx context.Context, matchID string, v goofspiel.View) (goofspiel.Move, error) {
	resp, err := r.send(ctx, r.turnPath(), turnBody(matchID, "goofspiel", v))
	if err != nil {
		return goofspiel.Move{}, err
	}
	if resp.Status != 200 {
		return goofspiel.Move{}, verdict.Failf("PYYOL-PUSH-TURN", 200, resp.Status, "/turn for round %d", v.Round)
	}
	body := r.readMove("goofspiel", resp.Body)
	// spec/pyyol/frames/goofspiel-move.json: the move's documented shape.
	if err := judgeFrame(checkPart("goofspiel-move", body, "PYYOL-PUSH-TURN", "the agent's Goofspiel move"), r.note); err != nil {
		return goofspiel.Move{}, err
	}
	var mv goofspiel.Move
	if err := json.Unmarshal(body, &mv); err != nil {
		return mv, verdict.Failf("PYYOL-PUSH-TURN", "a JSON move {round, card}", string(resp.Body), "%v", err)
	}
	return mv, nil
}

// ack pushes a one-way or acknowledged call and wants 200.
func (r *Referee) ack(ctx context.Context, path, rule string, body map[string]any) error {
	resp, err := r.send(ctx, path, body)
	if err != nil {
		return err
	}
	if resp.Status != 200 {
		return verdict.Failf(rule, 200, resp.Status, "POST %s", path)
	}
	return nil
}

// send pushes body with "protocol": "1.0" (PYYOL-PUSH-PROTOCOL-FIELD).
func (r *Referee) send(ctx context.Context, path string, body map[string]any) (*driver.Response, error) {
	body["protocol"] = "1.0"
	r.Sent = append(r.Sent, body)
	return r.Push.Do(ctx, driver.Request{Method: "POST", Path: path, JSON: body, Allow: []int{401}})
}
