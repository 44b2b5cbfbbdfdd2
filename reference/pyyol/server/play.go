package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// attach makes l the agent's current socket. A registration starts
// practice matches unless the agent's seat is already being driven: a
// reconnect re-registers and the running match goes on over the new socket
// (PYYOL-WS-RECONNECT).
func (g *Gateway) attach(l *link, reg Frame) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.supersede(g.agents[l.agentID], l) {
		return
	}
	g.agents[l.agentID] = l
	if g.playing[l.agentID] || g.startOther(l.agentID, reg) || !slices.Contains(reg.Games, "goofspiel") {
		return
	}
	g.playing[l.agentID] = true
	// PYYOL-REF-SANDBOX-MATCH: matched at once against the baseline bot.
	go g.practice(l.agentID, reg)
}

// detach forgets l when the socket drops; a turn waiting on it takes the
// fallback at once (PYYOL-WS-FALLBACK-DISCONNECT).
func (g *Gateway) detach(l *link) {
	l.close()
	g.mu.Lock()
	if g.agents[l.agentID] == l {
		g.agents[l.agentID] = nil
	}
	g.mu.Unlock()
}

// current returns the agent's live socket, or nil.
func (g *Gateway) current(agentID string) *link {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.agents[agentID]
}

// practice plays the matches a registration asked for, then forgets the
// agent so a later registration starts new ones.
func (g *Gateway) practice(agentID string, reg Frame) {
	defer func() {
		// A stake queued after the last check still gets its match.
		g.mu.Lock()
		again := g.stakes[agentID] != nil && g.agents[agentID] != nil && g.opts.Tamper != NoFallback
		if !again {
			delete(g.playing, agentID)
		}
		g.mu.Unlock()
		if again {
			go g.practice(agentID, Frame{Games: []string{"goofspiel"}})
		}
	}()
	// A registration asks for at most maxMatches practice matches.
	for i := 0; i < min(max(reg.Matches, 1), maxMatches); i++ {
		if !g.playMatch(agentID, reg.Practice) {
			return
		}
	}
	// A ranked match queued meanwhile is played next (PYYOL-REF-QUEUE).
	for g.stakeWaiting(agentID) {
		if !g.playMatch(agentID, nil) {
			return
		}
	}
}

// maxMatches bounds the practice matches one registration may ask for.
const maxMatches = 10000

// ruleSet applies a practice request to the standard rules
// (PYYOL-REF-PRACTICE-RULES); unknown values fall back to the standard.
func ruleSet(p *Practice) (goofspiel.Rules, int) {
	r, seat := goofspiel.Standard(), 0
	if p == nil {
		return r, seat
	}
	if p.FairnessMode == goofspiel.Open || p.FairnessMode == goofspiel.Shuffled {
		r.FairnessMode = p.FairnessMode // an empty one keeps the standard's
	}
	if p.TieRule == goofspiel.Split || p.TieRule == goofspiel.Carry {
		r.TieRule = p.TieRule
	}
	if p.Seat != nil && (*p.Seat == 0 || *p.Seat == 1) {
		seat = *p.Seat
	}
	return r, seat
}

// matchRun is one match's state on the gateway side.
type matchRun struct {
	g       *Gateway
	agentID string
	id      string
	seat    int
	m       *goofspiel.Match
	sent    int
	usage   []usageRecord
}

// playMatch drives one practice match to game_end; false means the match
// wedged on purpose (the NoFallback tamper).
func (g *Gateway) playMatch(agentID string, p *Practice) bool {
	rules, seat := ruleSet(p)
	if g.opts.Tamper == FakeOpen {
		rules.FairnessMode = goofspiel.Shuffled
	}
	id, seed := g.nextMatchID()
	m, err := goofspiel.New(rules, seed)
	if err != nil {
		return false
	}
	run := &matchRun{g: g, agentID: agentID, id: id, seat: seat, m: m}
	stake := g.claimStake(agentID)
	g.logf("pyyol-gateway: match %s for %s (seat %d)", id, agentID, seat)
	// PYYOL-WS-INITIALIZE: initialize carries an id; the ack is awaited
	// like a turn but its absence changes nothing.
	run.ask(initializeFrame("init_"+id, "goofspiel", id, map[string]any{"seat": seat, "players": 2, "rules": rules}), "init_"+id)
	run.flush()
	for !m.Done() {
		if !run.agentBids() {
			return false
		}
		m.Bid(1-seat, goofspiel.Baseline(m.View(1-seat)))
		run.flush()
	}
	res := endResult{Result: m.Result(), Rounds: len(m.Result().History), Usage: run.usage, Stake: g.settle(agentID, stake, seat, m.Result())}
	if res.Usage == nil {
		res.Usage = []usageRecord{}
	}
	// PYYOL-WS-GAME-END: the final result and the full record.
	run.push(gameEndFrame("goofspiel", id, seat, withSeatCards(res, seat)))
	if g.opts.Referee != nil {
		g.opts.Referee.Finished(agentID, res.Result)
	}
	return true
}

// agentBids asks the agent for this round's move and seals it, or the
// fallback when the answer is late, missing, an error or illegal.
func (r *matchRun) agentBids() bool {
	id := fmt.Sprintf("turn_%s_%d", r.id, r.m.Round())
	// PYYOL-WS-TURN: a turn frame with an id and the seat's view.
	resp, ok := r.ask(turnFrame(id, "goofspiel", r.id, r.m.View(r.seat)), id)
	why := "no response in time"
	if ok && resp.Error != "" {
		why = "handler error: " + resp.Error
	}
	if ok && resp.Error == "" {
		var mv goofspiel.Move
		err := json.Unmarshal(resp.move(), &mv)
		if err == nil {
			if r.g.opts.Tamper == IgnoresRound {
				mv.Round = r.m.Round()
			}
			if err = r.m.Bid(r.seat, mv); err == nil {
				r.record(mv.Round, resp)
				return true
			}
		}
		why = "illegal move " + string(resp.move()) + ": " + err.Error()
	}
	if ref := r.g.opts.Referee; ref != nil {
		ref.Fallback(r.agentID, r.m.Round(), why)
	}
	if r.g.opts.Tamper == NoFallback {
		return false
	}
	// PYYOL-WS-FALLBACK-TIMEOUT, PYYOL-WS-FALLBACK-ILLEGAL,
	// PYYOL-WS-FALLBACK-ERROR (PYYOL-REF-ERROR-RESPONSE): whatever went
	// wrong, the engine bids the seat's lowest card and the match goes on.
	if r.g.opts.Tamper == FallbackPrizeCard {
		if v := r.m.View(r.seat); slices.Contains(v.YourHand, v.CurrentPrize) {
			r.m.Bid(r.seat, goofspiel.Move{Round: r.m.Round(), Card: v.CurrentPrize})
			return true
		}
	}
	if r.g.opts.Tamper == FallbackHighest {
		hand := r.m.Hand(r.seat)
		r.m.Bid(r.seat, goofspiel.Move{Round: r.m.Round(), Card: hand[len(hand)-1]})
		return true
	}
	r.m.Fallback(r.seat)
	return true
}

// record keeps a move's self-reported usage with meter_source "sdk"; a
// malformed record is ignored and never touched the move's legality
// (PYYOL-REF-USAGE).
func (r *matchRun) record(round int, resp Frame) {
	raw := resp.Usage
	if raw == nil {
		var inMove struct {
			Usage json.RawMessage `json:"usage"`
		}
		json.Unmarshal(resp.move(), &inMove)
		raw = inMove.Usage
	}
	var u map[string]any
	if raw == nil || json.Unmarshal(raw, &u) != nil || u == nil {
		return
	}
	u["meter_source"] = "sdk"
	r.usage = append(r.usage, usageRecord{Round: round, Seat: r.seat, Usage: u, MeterSource: "sdk"})
}

// ask sends a frame that expects a response echoing id and waits for it,
// bounded by the turn timeout. With no socket it waits that long for the
// agent to reconnect; a socket that drops while waiting ends the wait.
func (r *matchRun) ask(frame any, id string) (Frame, bool) {
	deadline := time.Now().Add(r.g.opts.TurnTimeout)
	for {
		l := r.g.current(r.agentID)
		if l == nil {
			if time.Now().After(deadline) {
				return Frame{}, false
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		ch := l.expect(id)
		if l.send(frame) != nil || r.injectFault(l, frame, id) {
			l.forget(id)
			return Frame{}, false
		}
		wait := time.NewTimer(time.Until(deadline))
		defer wait.Stop()
		select {
		case f := <-ch:
			return f, true
		case <-l.closed:
		case <-wait.C:
			l.markTimedOut(id)
		}
		l.forget(id)
		return Frame{}, false
	}
}

// push sends a one-way frame to the agent's socket if it has one
// (PYYOL-WS-ONE-WAY: event and game_end need no response).
func (r *matchRun) push(frame any) {
	if isGameEnd(frame) {
		r.g.matchEnded(r.agentID, r.id)
	}
	if l := r.g.current(r.agentID); l != nil {
		l.send(frame)
	}
}

// flush sends the events not sent yet, in seq order (PYYOL-WS-EVENT-SEQ).
func (r *matchRun) flush() {
	events := r.m.EventsAfter(r.sent)
	if r.g.opts.Tamper == UnorderedEvents {
		slices.Reverse(events)
	}
	for _, e := range events {
		if r.g.opts.Tamper == FakeOpen && e.Type == goofspiel.MatchCreated {
			p := map[string]any{}
			for k, v := range e.Payload.(map[string]any) {
				p[k] = v
			}
			p["fairness_mode"] = goofspiel.Open
			e.Payload = p
		}
		if r.g.opts.Tamper == AwaitsEventAcks {
			r.awaitAck(e)
			continue
		}
		r.push(eventFrame("goofspiel", r.id, e.Seq, e.Type, e.Payload))
	}
	r.sent = r.m.LastSeq()
}

// awaitAck is the AwaitsEventAcks defect: an event sent as if it were
// synchronous, the match held until the agent answers it or leaves.
func (r *matchRun) awaitAck(e goofspiel.Event) {
	l := r.g.current(r.agentID)
	if l == nil {
		return
	}
	id := fmt.Sprintf("ev_%s_%d", r.id, e.Seq)
	ch := l.expect(id)
	ev := eventFrame("goofspiel", r.id, e.Seq, e.Type, e.Payload)
	ev.ID = id
	l.send(ev)
	select {
	case <-ch:
	case <-l.closed:
	}
}
