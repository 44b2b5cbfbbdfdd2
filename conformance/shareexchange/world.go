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
	offered   bool                      // the last exchange sent was an OFFER
	hex       map[string]map[int]string // agent -> share -> share_hex
	body      map[string]any            // Last's body, decoded
	listedAt  time.Time                 // when the runner began listing the team (grace)
	st        *runState                 // the run's rotators and listings
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
// of 4: one past k). combinable_now is the matching's, never a count of
// shares or of holders (BOUNTY-PROXIMITY; SX-NOT-COMBINABLE,
// SX-OFFER-NOT-COMBINABLE, SX-RELEASE).
type board int

const (
	combinable board = iota
	short
	twoMembers
	twoShares
	spare
)

// setup plays a board on the platform: three registered agents, the
// responder's own (the highest agent_id, so it is never the broker) on
// share 2, the other two on 3 and 5 (as shape moves them); all three
// listed, the responder's agent with the responder's URL. A fourth agent,
// the lowest agent_id of all, is listed holding nothing (the bystander),
// and another stays unlisted; a spare board lists one more holder, the
// highest agent_id of all.
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
	if shape == spare {
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
	if err := w.solveTeam(ctx, w.shares(holder, shape)); err != nil {
		return err
	}
	if shape == spare {
		team = append(team, listed[4])
		if err := w.solveTeam(ctx, map[string][]int{listed[4]: {1}}); err != nil {
			return err
		}
	}
	if err := w.adopt(ctx, w.hex[w.mine]); err != nil {
		return err
	}
	w.listedAt = w.now()
	for _, a := range append([]string{w.bystander}, team...) {
		contact := "https://collector.example/" + a
		if a == w.mine {
			contact = w.env.HTTP.BaseURL()
		}
		if err := p.list(ctx, st, a, contact); err != nil {
			return err
		}
	}
	return nil
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
	w.offered = body["kind"] == "offer"
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
	if cid == "" {
		cid = w.p.cid
	}
	body := map[string]any{"protocol": proto, "challenge_id": cid, "round": 0, "requester": requester, "agent_id": w.mine, "share_index": share}
	if proto == "" {
		delete(body, "protocol") // a body without its protocol (SX-BAD-REQUEST)
	}
	return w.send(ctx, body)
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
	body := map[string]any{"protocol": rsx.Protocol, "kind": "offer", "challenge_id": cid, "round": 0, "agent_id": from, "to": to, "share_index": share}
	if withHex {
		h := w.hex[from][share]
		if h == "" {
			h = strings.Repeat("ab", 33) // a share the offerer does not hold
		}
		body["share_hex"] = h
	}
	return body
}
