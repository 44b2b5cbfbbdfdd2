package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// Push matches: the reference platform plays a verified hosted agent
// through its push routes (protocol.md "Lifecycle"). After a successful
// verify it pushes one practice Goofspiel match, and POST
// .../manifest/{manifest}/practice asks for another (PYYOL-PLAT-REF-PRACTICE).
// The agent sits in seat 0 against the kit's baseline bot.

// pushMatchLimit bounds one whole push match.
const pushMatchLimit = 10 * time.Minute

// pushPractice answers POST .../manifest/{manifest}/practice: 202 with the id of
// a push match started for a verified manifest, 409 otherwise.
func (g *Gateway) pushPractice(w http.ResponseWriter, r *http.Request, agentID string) {
	p := g.findManifest(w, r, agentID)
	if p == nil {
		return
	}
	g.mu.Lock()
	verified, m, secret := p.verified, p.manifest, p.secret
	g.mu.Unlock()
	if !verified {
		writeJSON(w, http.StatusConflict, map[string]string{"error": "not_verified"})
		return
	}
	id := g.startPushMatch(g.newPushClient(m, secret))
	writeJSON(w, http.StatusAccepted, map[string]string{"match_id": id, "status": "started"})
}

// startPushMatch plays a push match in the background and returns its id.
func (g *Gateway) startPushMatch(c *pushClient) string {
	id, seed := g.nextMatchID()
	if g.opts.Tamper != NeverPushes {
		go g.pushMatch(c, id, seed)
	}
	return id
}

// pushMatch plays one Goofspiel match through the push routes.
func (g *Gateway) pushMatch(c *pushClient, id string, seed []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), pushMatchLimit)
	defer cancel()
	m, err := goofspiel.New(goofspiel.Standard(), seed)
	if err != nil {
		return
	}
	rules := m.Rules()
	// PYYOL-PLAT-INITIALIZE: "A match is starting (seat, role, player count)".
	if g.opts.Tamper != NoInitialize {
		c.call(ctx, "/initialize", map[string]any{"match_id": id, "game": "goofspiel", "seat": 0, "players": 2, "config": rules})
	}
	out := g.newNotifier(ctx, c, id)
	seq := out.events(m, 0)
	for !m.Done() {
		mv, ok := c.bid(ctx, id, m.View(0))
		if !ok || m.Bid(0, mv) != nil {
			// PYYOL-PLAT-FALLBACK: late, failed, illegal or no answer: the
			// lowest legal card, and the match goes on.
			g.fallback(m)
		}
		m.Bid(1, goofspiel.Baseline(m.View(1)))
		seq = out.events(m, seq)
	}
	// PYYOL-PLAT-GAME-END-BODY: "/game-end delivers the final result".
	if g.opts.Tamper != NoGameEnd {
		out.send("/game-end", map[string]any{"match_id": id, "game": "goofspiel", "result": m.Result()})
	}
	out.close()
}

// fallback seals seat 0's fallback: its lowest card, or its highest for
// a platform tampered to fall back wrong.
func (g *Gateway) fallback(m *goofspiel.Match) {
	if g.opts.Tamper == FallbackHighest {
		hand := m.Hand(0)
		m.Bid(0, goofspiel.Move{Round: m.Round(), Card: hand[len(hand)-1]})
		return
	}
	m.Fallback(0)
}

// bid asks the agent for its move: one /turn, the view's fields at the top
// level beside match_id and game (PYYOL-REF-PUSH-BODIES,
// PYYOL-PLAT-TURN-BODY). A move without a round answers the view's.
func (c *pushClient) bid(ctx context.Context, id string, v goofspiel.View) (goofspiel.Move, bool) {
	body := viewBody(v)
	body["match_id"], body["game"] = id, "goofspiel"
	r := c.postTurn(ctx, body)
	if !r.ok() {
		return goofspiel.Move{}, false
	}
	return readMove(r.body, v.Round)
}

// viewBody is the view's own fields as a JSON object.
func viewBody(v goofspiel.View) map[string]any {
	raw, _ := json.Marshal(v)
	body := map[string]any{}
	json.Unmarshal(raw, &body)
	return body
}

// readMove reads a Goofspiel move: {round, card}, or the same under
// "move" or "action" (a reading the docs leave open).
func readMove(raw []byte, round int) (goofspiel.Move, bool) {
	var top struct {
		Round  *int            `json:"round"`
		Card   *int            `json:"card"`
		Move   json.RawMessage `json:"move"`
		Action json.RawMessage `json:"action"`
	}
	if json.Unmarshal(raw, &top) != nil {
		return goofspiel.Move{}, false
	}
	if top.Card == nil {
		for _, inner := range []json.RawMessage{top.Move, top.Action} {
			if len(inner) > 0 {
				return readMove(inner, round)
			}
		}
		return goofspiel.Move{}, false
	}
	mv := goofspiel.Move{Round: round, Card: *top.Card}
	if top.Round != nil {
		mv.Round = *top.Round
	}
	return mv, true
}

// notifier delivers a match's one-way notifications in order on its own
// goroutine, so a slow /event never stalls the match (PYYOL-PLAT-ONE-WAY:
// "/turn is the only call the engine waits on").
type notifier struct {
	c     *pushClient
	ctx   context.Context
	id    string
	queue chan notice
	done  chan struct{}
	sync  bool
}

type notice struct {
	route string
	body  map[string]any
}

func (g *Gateway) newNotifier(ctx context.Context, c *pushClient, id string) *notifier {
	n := &notifier{c: c, ctx: ctx, id: id, queue: make(chan notice, 1024), done: make(chan struct{}),
		sync: g.opts.Tamper == StallsOnEvents}
	go n.run()
	return n
}

func (n *notifier) run() {
	defer close(n.done)
	for x := range n.queue {
		n.c.call(n.ctx, x.route, x.body)
	}
}

// send queues one notification; a platform tampered to await them
// delivers it before going on.
func (n *notifier) send(route string, body map[string]any) {
	if n.sync {
		n.c.call(n.ctx, route, body)
		return
	}
	select {
	case n.queue <- notice{route, body}:
	case <-n.ctx.Done():
	}
}

// events sends the match's events after seq as /event bodies {match_id,
// game, seq, type, payload} (PYYOL-PLAT-EVENT-BODY) and returns the last seq.
func (n *notifier) events(m *goofspiel.Match, seq int) int {
	for _, e := range m.EventsAfter(seq) {
		n.send("/event", map[string]any{"match_id": n.id, "game": "goofspiel", "seq": e.Seq, "type": e.Type, "payload": e.Payload})
		seq = e.Seq
	}
	return seq
}

// close waits for the queued notifications to go out.
func (n *notifier) close() {
	close(n.queue)
	select {
	case <-n.done:
	case <-n.ctx.Done():
	}
}
