package server

import (
	"github.com/coder/websocket"

	"github.com/agentgames/conformance/reference/faults"
)

// The failures the runtime documents for a turn in flight, which
// reference/faults injects on demand (serve --faults).
const (
	// LateTurn: the turn's deadline passes before the agent's answer counts.
	LateTurn = "late_turn"
	// DroppedSocket: the socket drops with the turn in flight.
	DroppedSocket = "dropped_socket"
	// SupersededSocket: the socket is closed as superseded by another
	// registration of the agent, with the turn in flight.
	SupersededSocket = "superseded_socket"
)

// SupersededCode and SupersededReason close an agent's older socket when
// another registers for the same agent (PYYOL-REF-SUPERSEDED: the docs
// name no close code, so the kit picks one of the application range).
const (
	SupersededCode   = websocket.StatusCode(4000)
	SupersededReason = "superseded"
)

// Faults are the failures local-runtime.md documents for a turn, injected
// inside the socket rather than answered over HTTP (no Applies): the
// gateway draws one each time it sends a turn. The docs document no HTTP
// failure of the gateway (no rate limit, no quota answer), so none is
// injected there.
func Faults() []faults.Fault {
	return []faults.Fault{{
		Name: LateTurn, Rule: "PYYOL-WS-FALLBACK-TIMEOUT",
		Doc: "a turn whose deadline passes before the answer counts: the engine takes the safe deterministic fallback (Goofspiel: the lowest card) and the late response changes nothing",
	}, {
		Name: DroppedSocket, Rule: "PYYOL-WS-FALLBACK-DISCONNECT",
		Doc: "the socket drops with a turn in flight: the turn takes the fallback; the agent reconnects with backoff and re-registers, and the match goes on over the new socket",
	}, {
		Name: SupersededSocket, Rule: "PYYOL-REF-SUPERSEDED",
		Doc: "the socket is closed 4000 superseded, as when another socket registers for the agent, with a turn in flight: the turn takes the fallback; the match goes on over the agent's next socket",
	}}
}

// turnFaults names the faults a turn of each game may meet. A late turn is
// Goofspiel's only: the runner tells a fallback from a dropped answer only
// where the fallback is known (the lowest card).
var turnFaults = map[string][]string{
	"goofspiel": {LateTurn, DroppedSocket, SupersededSocket},
	"mafia":     {DroppedSocket, SupersededSocket},
	"monopoly":  {DroppedSocket, SupersededSocket},
}

// turnGame names the game of a turn frame, "" for any other frame.
func turnGame(frame any) string {
	if f, ok := frame.(Frame); ok && f.T == "turn" {
		return f.game
	}
	return ""
}

// injectFault draws, after a turn was sent on l, whether the turn meets a
// documented failure and makes it happen; true means the turn is settled
// by the fallback at once.
func (r *matchRun) injectFault(l *link, frame any, id string) bool {
	game := turnGame(frame)
	if game == "" {
		return false
	}
	f, ok := l.faults.Draw(id, turnFaults[game]...)
	if !ok {
		return false
	}
	switch f.Name {
	case LateTurn:
		l.markInjected(id)
	case DroppedSocket:
		l.markDropped()
		// PYYOL-WS-FALLBACK-DISCONNECT: the socket drops; the in-flight
		// turn takes the fallback and the agent must come back.
		r.g.detach(l)
		l.conn.CloseNow()
	case SupersededSocket:
		l.markDropped()
		r.g.detach(l)
		go l.conn.Close(SupersededCode, SupersededReason)
	}
	// LateTurn (PYYOL-WS-FALLBACK-TIMEOUT): the deadline has passed; the
	// answer, when it comes, is late and dropped (PYYOL-WS-LATE-RESPONSE).
	return true
}

// supersede closes old, the agent's socket until now, when next registers
// for the same agent (PYYOL-REF-SUPERSEDED: close 4000 "superseded"); a
// turn in flight on old takes the fallback. The later registration wins
// even when the earlier one attaches last, in which case next is the one
// closed and supersede reports true. Called under g.mu.
func (g *Gateway) supersede(old, next *link) bool {
	if old == nil || old == next {
		return false
	}
	loser := old
	if old.order > next.order {
		loser = next
	}
	loser.close()
	go loser.conn.Close(SupersededCode, SupersededReason)
	return loser == next
}

// registration numbers a registration, in the order keys resolve.
func (g *Gateway) registration() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.registers++
	return g.registers
}

// isGameEnd reports whether frame is a match's game_end, of any game.
func isGameEnd(frame any) bool {
	f, ok := frame.(Frame)
	return ok && f.T == "game_end"
}
