package shareexchange

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// world is one scenario: the platform, the roles, and (in the embedded
// base) the last answer.
type world struct {
	suite.Scenario[suite.NoState]
	env  *suite.Env
	p    *platform
	rule string
	// the responder's agent (holder or collector), the broker (lowest id
	// of the roster), the other member, and an unlisted agent.
	mine, broker, other, unlisted string
	// bystander is listed, holds nothing and has the lowest agent_id of
	// the board's agents, so that it is never in the roster and a broker
	// taken as the lowest listed agent_id names it (SX-NOT-BROKER).
	bystander string
	// second is the fifth listed agent of a board with one (extraShare):
	// the highest agent_id of all, outside the roster.
	second   string
	plan     map[string][]int          // agent -> the shares setup had it solve, again each round (nextRound)
	listing  []string                  // the agents setup listed, the bystander first
	offered  bool                      // the last exchange sent was an OFFER
	gap      string                    // the field the last exchange left out, if any (refusedIncomplete)
	hex      map[string]map[int]string // agent -> share -> share_hex
	body     map[string]any            // Last's body, decoded
	listedAt time.Time                 // when the runner began listing the team (grace)
	st       *runState                 // the run's rotators and listings
}

// role maps a step's word to an agent.
func (w *world) role(who string) string {
	switch who {
	case "broker":
		return w.broker
	case "non-broker", "offerer":
		return w.other
	case "unlisted agent":
		return w.unlisted
	case "bystander":
		return w.bystander
	case "second holder":
		return w.second
	}
	return w.mine // holder, collector
}

// board is the shape of a board setup plays. The combinable one holds
// shares 2, 3 and 5 on three members; the others move the member on 5:
// short leaves it share-less (a matching of 2), twoMembers gives share 5
// to the member on 3 (three distinct shares listed, on two members: a
// matching of 2), twoShares puts it on 3 as well (three holders of two
// shares: a matching of 2), and spare adds a fourth holder, on share 1
// and the highest agent_id of the team, outside the roster (a matching
// of 4: one past k); doubled gives the member on 3 share 1 too and adds
// a second holder of 3 outside the roster (a matching of 4), so that one
// holder offers two shares and two holders one (SX-OFFER-ACCEPT: the
// collector keeps the first offer per (round, holder, share)).
// combinable_now is the matching's, never a count of shares or of
// holders (BOUNTY-PROXIMITY; SX-NOT-COMBINABLE, SX-OFFER-NOT-COMBINABLE,
// SX-RELEASE).
type board int

const (
	combinable board = iota
	short
	twoMembers
	twoShares
	spare
	doubled
)

// extraShare is the share a board's fifth listed agent (second) holds:
// spare's holder of share 1, doubled's second holder of share 3. The
// other boards list no fifth agent.
var extraShare = map[board]int{spare: 1, doubled: 3}

// setup plays a board on the platform: three registered agents, the
// responder's own (the highest agent_id, so it is never the broker) on
// share 2, the other two on 3 and 5 (as shape moves them); all three
// listed, the responder's agent with the responder's URL. A fourth agent,
// the lowest agent_id of all, is listed holding nothing (the bystander),
// and another stays unlisted; a spare or doubled board lists one more
// holder, the highest agent_id of all (extraShare).
func (w *world) setup(ctx context.Context, holder bool, shape board) error {
	p, err := openPlatform(ctx, w.env)
	if err != nil {
		return err
	}
	w.p = p
	v, err := w.env.Shared.Once("share-exchange-run", func() (any, error) { return &runState{listed: map[string]bool{}}, nil })
	if err != nil {
		return err
	}
	st := v.(*runState)
	w.st = st
	if err := p.fresh(ctx, st); err != nil {
		return err
	}
	n := 5
	if extraShare[shape] != 0 {
		n = 6
	}
	ids := make([]string, n)
	for i := range ids {
		if ids[i], err = p.register(ctx); err != nil {
			return err
		}
	}
	w.unlisted = ids[n-1]
	listed := ids[:n-1]
	sort.Strings(listed)
	w.bystander = listed[0]
	team := listed[1:4]
	w.broker, w.other, w.mine = team[0], team[1], team[2]
	plan := w.shares(holder, shape)
	if s := extraShare[shape]; s != 0 {
		w.second = listed[4]
		team = append(team, w.second)
		plan[w.second] = []int{s}
	}
	w.plan, w.listing = plan, append([]string{w.bystander}, team...)
	if err := w.solveTeam(ctx, plan); err != nil {
		return err
	}
	if err := w.adopt(ctx, w.hex[w.mine]); err != nil {
		return err
	}
	return w.listTeam(ctx)
}

// listTeam lists (or, listed already, refreshes: idempotent) every agent
// setup listed, the responder's agent with the responder's URL, and marks
// when: the board cannot have been combinable before (grace).
func (w *world) listTeam(ctx context.Context) error {
	w.listedAt = w.now()
	for _, a := range w.listing {
		contact := "https://collector.example/" + a
		if a == w.mine {
			contact = w.env.HTTP.BaseURL()
		}
		if err := w.p.list(ctx, w.st, a, contact); err != nil {
			return err
		}
	}
	return nil
}

// nextRound closes the live round with the run's rotators and plays the
// same board in the round that opens: each agent solves its shares again
// (shares do not carry over), the responder is handed its own, and the
// team is listed again, which a platform that carries listings over takes
// as a refresh. An exchange of the new round is then a new (round,
// holder, share) (SX-OFFER-ACCEPT).
func (w *world) nextRound(ctx context.Context) error {
	w.st.mu.Lock()
	err := w.p.win(ctx, w.st)
	w.st.mu.Unlock()
	if err != nil {
		return err
	}
	if err := w.solveTeam(ctx, w.plan); err != nil {
		return err
	}
	if err := w.adopt(ctx, w.hex[w.mine]); err != nil {
		return err
	}
	return w.listTeam(ctx)
}

// shares is what each member of the team solves on a board of shape. As
// holder, the broker and the other member hold 3 and 5; as collector,
// the offerer (other) holds 3 and the third member 5; the member on 5 is
// the one shape moves.
func (w *world) shares(holder bool, shape board) map[string][]int {
	on3, on5 := w.broker, w.other
	if !holder {
		on3, on5 = w.other, w.broker
	}
	out := map[string][]int{w.mine: {2}, on3: {3}, on5: {5}}
	switch shape {
	case short:
		out[on5] = nil
	case twoMembers:
		out[on3], out[on5] = []int{3, 5}, nil
	case twoShares:
		out[on5] = []int{3}
	case doubled:
		out[on3] = []int{3, 1}
	}
	return out
}

// solveTeam solves each agent's shares on the platform and keeps their
// share_hex.
func (w *world) solveTeam(ctx context.Context, shares map[string][]int) error {
	for agent, list := range shares {
		for _, share := range list {
			h, err := w.p.solve(ctx, agent, share)
			if err != nil {
				return err
			}
			if w.hex[agent] == nil {
				w.hex[agent] = map[int]string{}
			}
			w.hex[agent][share] = h
		}
	}
	return nil
}

// now is the platform's clock when the run holds it (the embedded
// reference's), else the runner's.
func (w *world) now() time.Time {
	if w.env.Clock != nil {
		return w.env.Clock.Now()
	}
	return time.Now()
}

// graceMayHaveLapsed reports whether the broker's grace (broker_grace_s,
// 30 s: BOUNTY-BROKER) may have run out by now. The board cannot have
// been combinable before the runner began listing the team, so the time
// since then bounds combinable_for_s from above; a second is left for the
// platform's rounding. A slow runner (a loaded machine, a far platform)
// may take that long to set a board up, and then a release by
// grace_lapsed is as right as a not_broker refusal: the runner's speed
// decides nothing.
func (w *world) graceMayHaveLapsed() bool {
	margin := time.Second // a live board became combinable a little after the runner's mark
	if w.env.Clock != nil {
		margin = 0 // the embedded clock moves only when the runner moves it
	}
	return w.now().Sub(w.listedAt) >= time.Duration(bounty.BrokerGraceSeconds)*time.Second-margin
}

// adopt hands the responder its agent and shares through the reference's
// control surface (SX-CONTROL); a responder without one cannot be set up.
func (w *world) adopt(ctx context.Context, shares map[int]string) error {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/control/adopt",
		JSON: map[string]any{"agent_id": w.mine, "shares": shares}})
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK {
		return verdict.Skipf("the responder has no control surface (SX-CONTROL): it cannot play the runner's agent")
	}
	return nil
}

func (w *world) send(ctx context.Context, body map[string]any) error {
	w.offered, w.gap = body["kind"] == "offer", ""
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/", JSON: body})
	if err != nil {
		return err
	}
	w.Last, w.body = resp, map[string]any{}
	_ = json.Unmarshal(resp.Body, &w.body)
	if body["challenge_id"] == w.p.cid && w.body["code"] == "stale_round" {
		return w.rotatedUnder(ctx)
	}
	return nil
}

// rotatedUnder turns a stale_round answer to an exchange naming the round
// the runner read as live into a skip when the platform's registry shows
// the round moved on: the round may rotate between a board read and a
// pull ("challenge_id is not the live round"), and serve --faults brings
// exactly that about. If the registry still names the round, the answer
// is left for the check to judge.
func (w *world) rotatedUnder(ctx context.Context) error {
	was := w.p.cid
	if err := w.p.live(ctx); err != nil || w.p.cid == was {
		w.p.cid = was
		return nil
	}
	return verdict.Skipf("the round rotated under the check: the exchange named %s, now %s is live (SX-STALE)", was, w.p.cid)
}

func (w *world) pull(ctx context.Context, requester string, share int, cid, proto string) error {
	body := w.pullBody(requester, share, cid, proto)
	if proto == "" {
		delete(body, "protocol") // a body without its protocol (SX-BAD-REQUEST)
	}
	return w.send(ctx, body)
}

// pullBody is a PULL of the responder's agent's share from requester,
// naming cid (the live round when empty) and speaking proto.
func (w *world) pullBody(requester string, share int, cid, proto string) map[string]any {
	if cid == "" {
		cid = w.p.cid
	}
	return map[string]any{"protocol": proto, "challenge_id": cid, "round": w.roundOf(cid), "requester": requester, "agent_id": w.mine, "share_index": share}
}

// sendWithout sends body without field, which the answer is then judged
// for (refusedIncomplete: SX-BAD-REQUEST, SX-OFFER-BAD-REQUEST).
func (w *world) sendWithout(ctx context.Context, body map[string]any, field string) error {
	delete(body, field)
	if err := w.send(ctx, body); err != nil {
		return err
	}
	w.gap = field
	return nil
}

// roundOf is the round number an exchange naming cid carries: the closed
// round's for the round fresh closed, else the live round's, so that a
// request for a challenge no platform issued differs from a live one in
// its challenge_id alone. The convention names "the live round number";
// a responder that judges staleness by it rather than by the challenge_id
// releases to such a request (SX-STALE, SX-OFFER-STALE).
func (w *world) roundOf(cid string) int {
	if cid == w.p.closed && w.p.closedRound > 0 {
		return w.p.closedRound
	}
	return w.p.round
}

// closedRound is the challenge_id of the round the scenario's fresh board
// closed (SX-STALE, SX-OFFER-STALE: "challenge_id is not the live round",
// and a closed round is not, though the platform still reads it).
func (w *world) closedRound() (string, error) {
	if w.p == nil || w.p.closed == "" || w.p.closed == w.p.cid {
		return "", verdict.Skipf("unchecked: no round closed before this board")
	}
	return w.p.closed, nil
}

func (w *world) offer(ctx context.Context, from string, share int, cid, to string, withHex bool) error {
	return w.send(ctx, w.offerBody(from, share, cid, to, withHex))
}

// offerSpeaking offers share s from the offerer to the collector under
// another protocol, or none when proto is empty (SX-OFFER-BAD-REQUEST).
func (w *world) offerSpeaking(ctx context.Context, s int, proto string) error {
	body := w.offerBody(w.other, s, "", w.mine, true)
	body["protocol"] = proto
	if proto == "" {
		delete(body, "protocol")
	}
	return w.send(ctx, body)
}

// offerBody is a well-formed OFFER of share from one agent to another.
func (w *world) offerBody(from string, share int, cid, to string, withHex bool) map[string]any {
	if cid == "" {
		cid = w.p.cid
	}
	body := map[string]any{"protocol": rsx.Protocol, "kind": "offer", "challenge_id": cid, "round": w.roundOf(cid), "agent_id": from, "to": to, "share_index": share}
	if withHex {
		h := w.hex[from][share]
		if h == "" {
			h = strings.Repeat("ab", 33) // a share the offerer does not hold
		}
		body["share_hex"] = h
	}
	return body
}
