package server

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"github.com/agentgames/conformance/reference/bounty"
	sx "github.com/agentgames/conformance/reference/shareexchange"
)

// Responder is the inbound end for the agents it plays: it answers PULLs
// for the shares they hold and accepts OFFERs addressed to them.
type Responder struct {
	// Board reads the live board; every decision is made from it.
	Board func() bounty.Snapshot
	// Control enables POST /control/adopt (SX-CONTROL).
	Control bool
	// Broken names the rules this responder violates on purpose (tamper
	// tests only); nil breaks nothing.
	Broken map[string]bool

	mu     sync.Mutex
	shares map[string]map[int]string // agent -> share index -> share_hex
	inbox  map[string]sx.Offer       // "round/holder/share" -> first offer
}

// Adopt makes the responder answer for agent, holding the given shares.
func (r *Responder) Adopt(agent string, shares map[int]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shares == nil {
		r.shares = map[string]map[int]string{}
	}
	if r.shares[agent] == nil {
		r.shares[agent] = map[int]string{}
	}
	for i, h := range shares {
		r.shares[agent][i] = h
	}
}

// Inbox returns the first offer kept per (round, holder, share).
func (r *Responder) Inbox() []sx.Offer {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]sx.Offer, 0, len(r.inbox))
	for _, o := range r.inbox {
		out = append(out, o)
	}
	return out
}

func (r *Responder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch {
	case req.Method == http.MethodGet && req.URL.Path == "/":
		write(w, 200, map[string]any{"protocol": sx.Protocol, "agents": r.agents()})
	case req.Method == http.MethodPost && req.URL.Path == "/control/adopt" && r.Control:
		r.adopt(w, req)
	case req.Method == http.MethodPost && req.URL.Path == "/":
		r.exchange(w, req)
	default:
		write(w, 404, map[string]any{"ok": false, "protocol": sx.Protocol, "code": "not_found", "reason": "no such endpoint"})
	}
}

func (r *Responder) agents() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := []string{}
	for id := range r.shares {
		out = append(out, id)
	}
	return out
}

// adopt is the reference's control surface (SX-CONTROL): the runner
// hands it an identity and the shares that identity solved.
func (r *Responder) adopt(w http.ResponseWriter, req *http.Request) {
	var body struct {
		AgentID string         `json:"agent_id"`
		Shares  map[int]string `json:"shares"`
	}
	raw, _ := io.ReadAll(io.LimitReader(req.Body, 1<<16))
	if json.Unmarshal(raw, &body) != nil || body.AgentID == "" {
		write(w, 400, map[string]any{"ok": false, "protocol": sx.Protocol, "code": "bad_request", "reason": "{agent_id, shares}"})
		return
	}
	r.Adopt(body.AgentID, body.Shares)
	write(w, 200, map[string]any{"ok": true})
}

// exchange answers a PULL or, with kind "offer", an OFFER.
func (r *Responder) exchange(w http.ResponseWriter, req *http.Request) {
	raw, _ := io.ReadAll(io.LimitReader(req.Body, 1<<16))
	var kind struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(raw, &kind) != nil {
		answer(w, sx.Answer{Status: 400, Code: "bad_request", Reason: "malformed body"}, nil)
		return
	}
	if kind.Kind == "offer" {
		r.offer(w, raw)
		return
	}
	var p sx.Pull
	_ = json.Unmarshal(raw, &p)
	r.mu.Lock()
	mine := r.shares[p.AgentID]
	r.mu.Unlock()
	if mine == nil && p.AgentID != "" && p.Protocol == sx.Protocol {
		answer(w, sx.Answer{Status: 404, Code: "not_held", Reason: "this endpoint does not answer for agent_id"}, nil)
		return
	}
	s := r.Board()
	var held []int
	if e, ok := sx.Listed(s, p.AgentID); ok {
		for _, i := range e.SharesHeld {
			if _, have := mine[i]; have {
				held = append(held, i)
			}
		}
	}
	a := sx.ReleaseBroken(s, held, p, r.Broken)
	if a.Status != 200 {
		if r.Broken["SX-REFUSED-BODY"] {
			a.Reason = ""
		}
		answer(w, a, nil)
		return
	}
	extra := map[string]any{"agent_id": p.AgentID, "share_index": p.ShareIndex, "share_hex": mine[p.ShareIndex]}
	if r.Broken["SX-RELEASE"] {
		delete(extra, "share_hex")
	}
	answer(w, a, extra)
}

func (r *Responder) offer(w http.ResponseWriter, raw []byte) {
	var o sx.Offer
	_ = json.Unmarshal(raw, &o)
	s := r.Board()
	r.mu.Lock()
	defer r.mu.Unlock()
	me := o.To
	if _, ok := r.shares[me]; !ok {
		me = "" // not an agent this endpoint answers for
	}
	key := s.ChallengeID + "/" + o.AgentID + "/" + itoa(o.ShareIndex)
	_, seen := r.inbox[key]
	a := sx.AcceptOfferBroken(s, me, o, seen, r.Broken)
	if a.Code == "accepted" {
		if r.inbox == nil {
			r.inbox = map[string]sx.Offer{}
		}
		r.inbox[key] = o
	}
	answer(w, a, map[string]any{"kind": "offer"})
}

// answer writes a decision with the convention's body: a refusal is
// {ok: false, protocol, code, reason} (SX-REFUSED-BODY).
func answer(w http.ResponseWriter, a sx.Answer, extra map[string]any) {
	body := map[string]any{"ok": a.Status == 200, "protocol": sx.Protocol, "code": a.Code}
	if a.Status != 200 && a.Reason != "" {
		body["reason"] = a.Reason
	}
	if a.Code == "not_broker" {
		body["broker"], body["grace_remaining_s"] = a.Broker, a.GraceRemaining
	}
	for k, v := range extra {
		body[k] = v
	}
	write(w, a.Status, body)
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
