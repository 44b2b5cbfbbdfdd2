package pyyol

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// PushMonopolyTurnCap is the turn cap of the Monopoly matches the kit
// pushes (PYYOL-MONO-REF-PUSH-MATCH): short enough that a whole match,
// every event pushed one request at a time, stays a few hundred calls.
const PushMonopolyTurnCap = 30

// MonopolyReferee plays the platform for a whole Monopoly match against a
// push endpoint: the agent holds Seat of Players, engine bots the others
// (PYYOL-MONO-SEATS). Every answer is refereed: a failed /turn, a move
// outside the documented move shape or outside legal_actions fails
// naming its rule; a move the contract allows but the kit's reference
// rules refuse is a warning through Note, and the engine's fallback is
// played in its place, as the platform would (PYYOL-MONO-FALLBACK).
type MonopolyReferee struct {
	Referee
	Seat, Players int
	Turns         []monopoly.Move
	// Standings is every seat's end of the match, for simulate to show.
	Standings []MonopolyStanding
	// Decisions is, beside each of Turns, where the agent stood when it
	// decided and what its cash became, so simulate shows a writer the
	// match, not only the moves' names.
	Decisions []MonopolyDecision
}

// MonopolyDecision is one agent decision in its place: the turn and
// phase, the dice, the square the agent stood on (with its price when
// ownable) and its cash before and after the move.
type MonopolyDecision struct {
	Turn, Square, Price, CashBefore, CashAfter int
	Phase, SquareName                          string
	Dice                                       [2]int
}

// decisionAt records the agent's place before its move; settle fills in
// the cash the move left it.
func decisionAt(g *monopoly.Game, v monopoly.View, seat int) MonopolyDecision {
	p := g.Player(seat)
	sq := g.Board().Squares[p.Position]
	return MonopolyDecision{Turn: v.State.Turn, Phase: v.Phase, Dice: v.State.Dice, Square: p.Position,
		SquareName: sq.Name, Price: sq.Price, CashBefore: p.Cash}
}

// MonopolyStanding is one seat's end of a refereed match.
type MonopolyStanding struct {
	Seat, Cash, NetWorth, Properties int
	Bankrupt                         bool
}

// standings reads every seat's end of the match from the engine.
func standings(g *monopoly.Game) []MonopolyStanding {
	out := make([]MonopolyStanding, g.Rules().Players)
	for seat := range out {
		p := g.Player(seat)
		st := MonopolyStanding{Seat: seat, Cash: p.Cash, NetWorth: g.NetWorth(seat), Bankrupt: p.Bankrupt}
		for sq := range g.Board().Squares {
			if g.Board().Ownable(sq) && g.Holding(sq).Owner == seat {
				st.Properties++
			}
		}
		out[seat] = st
	}
	return out
}

// monopolySeed derives the engine's seed from the run seed.
func monopolySeed(seed uint64) uint64 {
	return binary.BigEndian.Uint64(MatchSeed(seed)[:8])
}

// rules are the match's rule set: the documented defaults, the table
// size asked for and the kit's turn cap.
func (r *MonopolyReferee) rules() monopoly.Rules {
	rules := monopoly.DefaultRules()
	if r.Players != 0 {
		rules.Players = r.Players
	}
	rules.TurnCap = PushMonopolyTurnCap
	return rules
}

// Play runs the match to game_over and returns the winners.
func (r *MonopolyReferee) Play(ctx context.Context) ([]int, error) {
	rules := r.rules()
	g, err := monopoly.New(rules, monopolySeed(r.Seed))
	if err != nil || r.Seat < 0 || r.Seat >= rules.Players {
		return nil, verdict.Errorf("the kit's Monopoly match: seat %d of %d: %v", r.Seat, rules.Players, err)
	}
	matchID := fmt.Sprintf("mt_kit_monopoly_%d", r.Seed)
	// PYYOL-MONO-REF-PUSH-MATCH: the bodies the kit pushes.
	if err := r.ack(ctx, "/initialize", "PYYOL-PUSH-INITIALIZE", initializeBody(matchID, "monopoly", r.Seat, "", rules.Players, rules)); err != nil {
		return nil, err
	}
	sent := 0
	for !g.Over() {
		if sent, err = r.monopolyEvents(ctx, g, matchID, sent); err != nil {
			return nil, err
		}
		if actor := g.Actor(); actor != r.Seat {
			g.Apply(actor, g.Bot(actor))
			continue
		}
		if err := r.agentMove(ctx, g, matchID); err != nil {
			return nil, err
		}
	}
	if _, err := r.monopolyEvents(ctx, g, matchID, sent); err != nil {
		return nil, err
	}
	r.Standings = standings(g)
	result := map[string]any{"winners": g.Winners(), "rules": rules, "history": g.EventsAfter(0)}
	r.noteReadings()
	return g.Winners(), r.ack(ctx, "/game-end", "PYYOL-PUSH-GAME-END-ACK", gameEndBody(matchID, "monopoly", result))
}

// agentMove asks the agent for its decision and plays it.
func (r *MonopolyReferee) agentMove(ctx context.Context, g *monopoly.Game, matchID string) error {
	v := g.View(r.Seat)
	d := decisionAt(g, v, r.Seat)
	resp, err := r.send(ctx, r.turnPath(), turnBody(matchID, "monopoly", v))
	if err != nil {
		return err
	}
	if resp.Status != 200 {
		return verdict.Failf("PYYOL-PUSH-TURN", 200, resp.Status, "/turn in phase %s, turn %d", v.Phase, v.State.Turn)
	}
	mv, err := monopolyMoveOf(r.readMove("monopoly", resp.Body), v, r.Seat, r.note)
	if err != nil {
		return err
	}
	if err := g.Apply(r.Seat, mv); err != nil {
		r.note(verdict.Failf("PYYOL-MONO-REF-PUSH-REFEREE", "a move the kit's reference rules accept", string(resp.Body),
			"phase %s, turn %d: %v; the engine's fallback was played instead", v.Phase, v.State.Turn, err))
		mv = g.Fallback(r.Seat)
		g.Apply(r.Seat, mv)
	}
	r.Turns = append(r.Turns, mv)
	d.CashAfter = g.Player(r.Seat).Cash
	r.Decisions = append(r.Decisions, d)
	return nil
}

// monopolyMoveOf decodes and judges an answer against what the contract
// fixes: the move's shape (spec/pyyol/frames/monopoly-move.json), an
// action from the view's legal_actions (PYYOL-MONO-MOVE-ACTION), a raise
// of at least 1 (PYYOL-MONO-MOVE-AMOUNT) and a trade the agent itself
// proposes to another seat of the table (PYYOL-MONO-MOVE-TRADE).
// A mismatch that names no MUST rule (a malformed self-reported usage,
// PYYOL-REF-USAGE) goes to note and ends nothing.
func monopolyMoveOf(body []byte, v monopoly.View, seat int, note func(error)) (monopoly.Move, error) {
	var mv monopoly.Move
	if err := judgeFrame(checkPart("monopoly-move", body, "PYYOL-MONO-MOVE-ACTION", "the agent's Monopoly move"), note); err != nil {
		return mv, err
	}
	if err := json.Unmarshal(body, &mv); err != nil {
		return mv, verdict.Failf("PYYOL-MONO-MOVE-ACTION", "a JSON move {action, property?, amount?, trade?}", string(body), "%v", err)
	}
	if !slices.Contains(v.LegalActions, mv.Action) {
		return mv, verdict.Failf("PYYOL-MONO-MOVE-ACTION", fmt.Sprintf("one of legal_actions %v", v.LegalActions), mv.Action,
			"phase %s, turn %d", v.Phase, v.State.Turn)
	}
	if mv.Action == monopoly.ActBid && mv.Amount != nil && *mv.Amount < 1 {
		return mv, verdict.Failf("PYYOL-MONO-MOVE-AMOUNT", "a raise of at least 1", *mv.Amount, "the bid's amount")
	}
	if t := mv.Trade; t != nil && (mv.Action == monopoly.ActProposeTrade || mv.Action == monopoly.ActCounterTrade) &&
		(t.Proposer != seat || t.Target == seat || t.Target >= len(v.State.Players)) {
		return mv, verdict.Failf("PYYOL-MONO-MOVE-TRADE", fmt.Sprintf("proposer %d (the agent) and another seat of %d as target", seat, len(v.State.Players)),
			string(body), "the trade offered")
	}
	return mv, nil
}

// monopolyEvents pushes the events after seq sent (every event of a
// Monopoly match is public) and returns the new last seq.
func (r *MonopolyReferee) monopolyEvents(ctx context.Context, g *monopoly.Game, matchID string, sent int) (int, error) {
	for _, e := range g.EventsAfter(sent) {
		if err := r.ack(ctx, "/event", "PYYOL-PUSH-EVENT-ACK", eventBody(matchID, "monopoly", e.Seq, e.Type, e.Payload)); err != nil {
			return sent, err
		}
	}
	return g.LastSeq(), nil
}

// requireGame skips unless the agent's handshake lists game: an agent
// need not play every game.
func (p *pushRun) requireGame(ctx context.Context, game string) error {
	if err := p.post(ctx, "/handshake", handshakeBody()); err != nil {
		return err
	}
	var hs struct {
		SupportedGames []string `json:"supportedGames"`
	}
	if p.Last.Status != 200 || json.Unmarshal(p.Last.Body, &hs) != nil || !slices.Contains(hs.SupportedGames, game) {
		return verdict.Skipf("the agent does not list %s in its handshake", game)
	}
	return nil
}
