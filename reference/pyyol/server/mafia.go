package server

import (
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

func init() { registerGame("mafia", playMafia) }

// defaultMafiaSeat is the practice seat of an agent that asks for none.
const defaultMafiaSeat = mafia.Seats - 1

// The Mafia defects the tamper tests use (reference/pyyol/mafia.Defect).
const (
	// MafiaTieToHighest resolves a tied vote to the highest tied seat.
	MafiaTieToHighest Tamper = "mafia-tie-to-highest"
	// MafiaTieToOutsider resolves a tied vote by eliminating a seat
	// outside the tie.
	MafiaTieToOutsider Tamper = "mafia-tie-to-outsider"
	// MafiaRolesLeaked shows every seat's role in every view.
	MafiaRolesLeaked Tamper = "mafia-roles-leaked"
	// MafiaKillTargetLeaked tells the Town the Mafia's night pick.
	MafiaKillTargetLeaked Tamper = "mafia-kill-target-leaked"
	// MafiaLastVoteWins eliminates the last vote's target.
	MafiaLastVoteWins Tamper = "mafia-last-vote-wins"
	// MafiaProtectIgnored lets the kill through the Doctor's protection.
	MafiaProtectIgnored Tamper = "mafia-protect-ignored"
)

var mafiaDefects = map[Tamper]mafia.Defect{
	MafiaTieToHighest:     mafia.TieToHighest,
	MafiaTieToOutsider:    mafia.TieToOutsider,
	MafiaRolesLeaked:      mafia.RolesLeaked,
	MafiaKillTargetLeaked: mafia.KillTargetLeaked,
	MafiaLastVoteWins:     mafia.LastVoteWins,
	MafiaProtectIgnored:   mafia.ProtectIgnored,
}

// mafiaRun is one Mafia match on the gateway side: the agent holds one
// seat, the kit's baseline plays the other eleven
// (PYYOL-MAFIA-REF-BASELINE, PYYOL-MAFIA-REF-PRACTICE).
type mafiaRun struct {
	matchRun
	m     *mafia.Match
	turns int
}

// mafiaSeat is the practice seat: the one asked for if it is 0..11, else
// 11 (PYYOL-MAFIA-REF-PRACTICE). The baseline names the lowest living seat
// at night and in the vote, so seat 11 is the one it reaches last: an
// agent that asks for no seat (the official SDK has no way to) still gets
// to play, where seat 0 was killed on the first night before its first
// turn.
func mafiaSeat(p *Practice) (int, string) {
	if p == nil {
		return defaultMafiaSeat, ""
	}
	seat := defaultMafiaSeat
	if p.Seat != nil && *p.Seat >= 0 && *p.Seat < mafia.Seats {
		seat = *p.Seat
	}
	return seat, p.Role
}

// playMafia drives one Mafia practice match to game_end.
func playMafia(g *Gateway, agentID string, reg Frame) bool {
	seat, role := mafiaSeat(reg.Practice)
	id, seed := g.nextMatchID()
	r := &mafiaRun{matchRun: matchRun{g: g, agentID: agentID, id: id, seat: seat},
		m: mafia.NewWithRoles(mafia.DealFor(seed, seat, role))}
	r.m.Break(mafiaDefects[g.opts.Tamper])
	g.logf("pyyol-gateway: mafia match %s for %s (seat %d)", id, agentID, seat)
	// initialize names the seat's role too (local-runtime.md: "A match
	// is starting (seat, role, players)"; runtime.py reads payload.role).
	r.ask(initializeFrame("init_"+id, "mafia", id, map[string]any{"seat": seat, "role": r.m.View(seat).YourRole,
		"players": mafia.Seats, "rules": map[string]any{"seats": mafia.Seats}}), "init_"+id)
	r.flushMafia()
	for !r.m.Done() {
		for _, s := range r.m.Waiting() {
			if s != seat {
				botActs(r.m, s)
			} else if !r.agentActs() {
				return false
			}
			r.flushMafia()
		}
	}
	// PYYOL-MAFIA-GAME-END: game_end carries the full transcript.
	r.push(gameEndFrame("mafia", id, seat, r.m.Outcome()))
	if g.opts.MafiaFinished != nil {
		g.opts.MafiaFinished(agentID, r.m.Outcome())
	}
	return true
}

// agentActs asks the agent for its move and plays it, or the safe default
// when the answer is late, missing, an error or illegal
// (PYYOL-MAFIA-FALLBACK); false only for the NoFallback defect.
func (r *mafiaRun) agentActs() bool {
	r.turns++
	id := fmt.Sprintf("turn_%s_%d", r.id, r.turns)
	resp, ok := r.ask(turnFrame(id, "mafia", r.id, r.m.View(r.seat)), id)
	why := "no response in time"
	if ok && resp.Error != "" {
		why = "handler error: " + resp.Error
	}
	if ok && resp.Error == "" {
		var mv mafia.Move
		err := json.Unmarshal(resp.move(), &mv)
		if err == nil {
			if err = r.m.Act(r.seat, mv); err == nil {
				return true
			}
		}
		why = "illegal move " + string(resp.move()) + ": " + err.Error()
	}
	if ref := r.g.opts.Referee; ref != nil {
		ref.Fallback(r.agentID, r.turns, why)
	}
	if r.g.opts.Tamper == NoFallback {
		return false
	}
	r.m.Fallback(r.seat)
	return true
}

// flushMafia sends the public events not sent yet, in seq order; night
// results stay in the seat's own view (PYYOL-MAFIA-NIGHT-PRIVATE).
func (r *mafiaRun) flushMafia() {
	for _, e := range r.m.PublicAfter(r.sent) {
		r.push(eventFrame("mafia", r.id, e.Seq, e.Type, e.Payload))
		r.sent = e.Seq
	}
}

// botActs plays the baseline for a bot seat, or its safe default should
// the baseline's move ever be refused, so the match always moves on.
func botActs(m *mafia.Match, seat int) {
	if m.Act(seat, mafia.Baseline(m.View(seat))) != nil {
		m.Fallback(seat)
	}
}
