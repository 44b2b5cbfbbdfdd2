package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentgames/conformance/reference/bounty"
	sx "github.com/agentgames/conformance/reference/shareexchange"
	"github.com/agentgames/conformance/reference/skeleton"
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
	raw, ierr := skeleton.ReadBody(req, skeleton.DefaultMaxRequest)
	if ierr == nil {
		ierr = skeleton.DecodeStrict(raw, &body)
	}
	if ierr != nil || body.AgentID == "" {
		write(w, 400, map[string]any{"ok": false, "protocol": sx.Protocol, "code": "bad_request", "reason": "{agent_id, shares}"})
		return
	}
	r.Adopt(body.AgentID, body.Shares)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	_, _ = w.Write(adopted)
}

// adopted is the control surface's answer to an adoption, the same
// bytes every time, encoded once.
var adopted = encoded(map[string]any{"ok": true})

// encoded is v as write encodes it.
func encoded(v any) []byte {
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(v)
	return buf.Bytes()
}

// exchange answers a PULL or, with kind "offer", an OFFER.
func (r *Responder) exchange(w http.ResponseWriter, req *http.Request) {
	raw, ierr := readExchange(req)
	if ierr != nil {
		answer(w, sx.Refuse(400, "bad_request", "malformed body: "+ierr.Message), nil)
		return
	}
	body, offer, refusal := readRequest(raw)
	switch {
	case refusal != "":
		answer(w, sx.Refuse(400, "bad_request", refusal), malformedKind(raw))
		return
	case offer != nil:
		r.offer(w, *offer)
		return
	}
	p := body.Pull
	r.mu.Lock()
	mine := r.shares[p.AgentID]
	r.mu.Unlock()
	if mine == nil && p.AgentID != "" && p.Protocol == sx.Protocol {
		answer(w, sx.Refuse(404, "not_held", "this endpoint does not answer for agent_id"), nil)
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
	a := sx.ReleaseSkipping(s, held, p, r.Broken)
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

// readRequest reads a checked exchange body as a pull or, when it names
// the offer kind, an offer; refusal is the 400's reason for a body that
// is neither (SX-BAD-REQUEST, SX-OFFER-BAD-REQUEST). A body is read as a
// pull first (the common request): a pull carries a kind other than
// "offer", so only a body that is not a well-formed pull, or names the
// offer kind, is asked its kind and read as an offer. readExchange
// already checked the body, so neither reading checks it again.
func readRequest(raw []byte) (pull pullBody, offer *sx.Offer, refusal string) {
	ierr := skeleton.DecodeChecked(raw, &pull)
	if (ierr != nil || pull.Kind == "offer") && offerKind(raw) {
		var o sx.Offer
		if ierr := skeleton.DecodeChecked(raw, &o); ierr != nil {
			return pull, nil, "malformed offer: " + ierr.Message
		}
		return pull, &o, ""
	}
	if ierr != nil {
		return pull, nil, "malformed pull: " + ierr.Message
	}
	return pull, nil, ""
}

// malformedKind is the extra field of a bad_request refusal of raw: an
// offer's refusal carries kind: offer like every other offer refusal
// (SX-REFUSED-BODY: the refused offer body names it), also when the offer
// is malformed in a field its decoding trips on (a share_index of 3.5).
func malformedKind(raw []byte) map[string]any {
	if offerKind(raw) {
		return map[string]any{"kind": "offer"}
	}
	return nil
}

// offerKind reports whether raw, one checked object, names the offer
// kind, read as leniently as encoding/json reads one field of it.
func offerKind(raw []byte) bool {
	var kind struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(raw, &kind) // readExchange checked it is one object
	return kind.Kind == "offer"
}

// pullBody is a PULL as the input policy reads it: the documented fields,
// and a kind other than "offer" (the offer's own field, which a pull may
// carry).
type pullBody struct {
	sx.Pull
	Kind string `json:"kind"`
}

// readExchange reads a PULL or OFFER body under the kit's input policy
// (SX-INPUT-POLICY, reference/skeleton): at most 64 KiB (the route's
// limit, a REFERENCE choice), valid UTF-8, one JSON object in which no
// key repeats; a refusal is the documented 400 bad_request (SX-BAD-REQUEST,
// SX-OFFER-BAD-REQUEST) and changes nothing.
func readExchange(req *http.Request) ([]byte, *skeleton.InputError) {
	raw, ierr := skeleton.ReadBody(req, skeleton.DefaultMaxRequest)
	if ierr != nil {
		return nil, ierr
	}
	if !utf8.Valid(raw) {
		return nil, &skeleton.InputError{Status: 400, Code: skeleton.CodeInvalidUTF8, Message: "the body is not valid UTF-8"}
	}
	if ierr := skeleton.CheckJSON(raw); ierr != nil {
		return nil, ierr
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, &skeleton.InputError{Status: 400, Code: skeleton.CodeNotAnObject, Message: "the body must be a JSON object"}
	}
	return raw, nil
}

func (r *Responder) offer(w http.ResponseWriter, o sx.Offer) {
	s := r.Board()
	r.mu.Lock()
	defer r.mu.Unlock()
	me := o.To
	if _, ok := r.shares[me]; !ok {
		me = "" // not an agent this endpoint answers for
	}
	key := s.ChallengeID + "/" + o.AgentID + "/" + itoa(o.ShareIndex)
	_, seen := r.inbox[key]
	a := sx.AcceptOfferSkipping(s, me, o, seen, r.Broken)
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
	writeMap(w, a.Status, body)
}

// writeMap writes body as write does: encoding/json's bytes for the map
// (keys sorted, HTML characters escaped, a trailing newline). Every
// exchange answers with one, so its members are written directly (a
// string, a boolean or an int; any other value through json.Marshal)
// instead of through the map's reflection; TestWriteMapIsWrite holds it
// to write. A value json.Marshal refuses leaves the answer to write.
func writeMap(w http.ResponseWriter, status int, body map[string]any) {
	raw, ok := appendMap(make([]byte, 0, 256), body)
	if !ok {
		write(w, status, body)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}

// appendMap appends m and a newline as json.Encoder writes them.
func appendMap(b []byte, m map[string]any) ([]byte, bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // encoding/json's order: strings.Compare of the keys
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendHTMLSafe(b, k), ':')
		switch v := m[k].(type) {
		case string:
			b = appendHTMLSafe(b, v)
		case bool:
			b = strconv.AppendBool(b, v)
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		default:
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, false
			}
			b = append(b, raw...)
		}
	}
	return append(b, "}\n"...), true
}

// appendHTMLSafe appends s as a JSON string with HTML characters escaped,
// as json.Encoder does by default: a string without <, > or & is written
// as skeleton.AppendJSONString writes it (the escapes are otherwise the
// same), any other through json.Marshal.
func appendHTMLSafe(b []byte, s string) []byte {
	if strings.ContainsAny(s, "<>&") {
		raw, _ := json.Marshal(s) // a string always marshals
		return append(b, raw...)
	}
	return skeleton.AppendJSONString(b, s)
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
