package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// MafiaReferee plays the platform for a full Mafia match against a push
// endpoint: the agent holds Seat (with Role when set), the kit's baseline
// the other eleven. Every move is refereed on the engine and an illegal
// one fails loudly (PYYOL-MAFIA-MOVE), as the docs' `simulate` does.
type MafiaReferee struct {
	Referee
	Seat  int
	Role  string
	Turns []mafia.Move
}

// Play runs the match to the end and returns its outcome.
func (r *MafiaReferee) Play(ctx context.Context) (mafia.Outcome, error) {
	m := mafia.NewWithRoles(mafia.DealFor(MatchSeed(r.Seed), r.Seat, r.Role))
	matchID := fmt.Sprintf("mt_kit_mafia_%d", r.Seed)
	// protocol.md: /initialize tells "seat, role, player count".
	if err := r.ack(ctx, "/initialize", "PYYOL-PUSH-INITIALIZE", initializeBody(matchID, "mafia", r.Seat, m.Role(r.Seat), mafia.Seats,
		map[string]any{"seats": mafia.Seats})); err != nil {
		return mafia.Outcome{}, err
	}
	sent := 0
	for !m.Done() {
		for _, s := range m.Waiting() {
			var err error
			if sent, err = r.mafiaEvents(ctx, m, matchID, sent); err != nil {
				return mafia.Outcome{}, err
			}
			if s != r.Seat {
				if m.Act(s, mafia.Baseline(m.View(s))) != nil {
					m.Fallback(s)
				}
				continue
			}
			if err := r.agentMove(ctx, m, matchID); err != nil {
				return mafia.Outcome{}, err
			}
		}
	}
	if _, err := r.mafiaEvents(ctx, m, matchID, sent); err != nil {
		return mafia.Outcome{}, err
	}
	out := m.Outcome()
	r.noteReadings()
	return out, r.ack(ctx, "/game-end", "PYYOL-PUSH-GAME-END-ACK", gameEndBody(matchID, "mafia", out))
}

// agentMove asks the agent for its move and plays it, failing on an
// illegal one.
func (r *MafiaReferee) agentMove(ctx context.Context, m *mafia.Match, matchID string) error {
	v := m.View(r.Seat)
	resp, err := r.send(ctx, r.turnPath(), turnBody(matchID, "mafia", v))
	if err != nil {
		return err
	}
	if resp.Status != 200 {
		return verdict.Failf("PYYOL-PUSH-TURN", 200, resp.Status, "/turn at %s, day %d", v.Phase, v.Day)
	}
	body := r.readMove("mafia", resp.Body)
	// spec/pyyol/frames/mafia-move.json: the documented move's shape.
	if err := judgeFrame(checkPart("mafia-move", body, "PYYOL-MAFIA-MOVE", "the agent's Mafia move"), r.note); err != nil {
		return err
	}
	var mv mafia.Move
	if err := json.Unmarshal(body, &mv); err != nil {
		return verdict.Failf("PYYOL-MAFIA-MOVE", "a JSON move {action, target?, tone?, text?}", string(resp.Body), "%v", err)
	}
	if err := m.Act(r.Seat, mv); err != nil {
		// What the contract fixes fails; what only the kit's reference
		// rules refuse warns, and the safe default is played instead.
		if err := mafiaRefusal(v, mv, resp.Body, err); !errors.Is(err, errReferenceOnly) {
			return err
		}
		r.note(verdict.Failf(mafiaReferenceRule(mv), "a move the kit's reference rules accept", string(resp.Body),
			"%s, day %d: %v; the engine's safe default was played instead", v.Phase, v.Day, err))
		mv, _ = m.Fallback(r.Seat)
	}
	r.Turns = append(r.Turns, mv)
	return nil
}

// mafiaEvents pushes the public events after seq sent (night results stay
// in the seat's own view, PYYOL-MAFIA-NIGHT-PRIVATE).
func (r *MafiaReferee) mafiaEvents(ctx context.Context, m *mafia.Match, matchID string, sent int) (int, error) {
	for _, e := range m.PublicAfter(sent) {
		if err := r.ack(ctx, "/event", "PYYOL-PUSH-EVENT-ACK", eventBody(matchID, "mafia", e.Seq, e.Type, e.Payload)); err != nil {
			return sent, err
		}
		sent = e.Seq
	}
	return sent, nil
}
