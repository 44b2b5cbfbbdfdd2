package shareexchange_test

import (
	"math"
	"net/http"
	"strings"

	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// The targets of the eighth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// foldedField lower-cases field of each pull (offers false) or offer
// (offers true) before the reference reads it: an implementer who
// normalises identifiers ("agent ids are hex, compare them without
// case") and so takes an identifier in another case for the one the
// platform issued.
func foldedField(offers bool, field string) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return exchangeBodies(h, offers, func(p map[string]any) {
			if s, ok := p[field].(string); ok {
				p[field] = strings.ToLower(s)
			}
		})
	}
}

// truncatedIndex reads share_index with an int parse that truncates
// (Python's int(2.5), Go's int(f)): a pull (offers false) or an offer of
// share 2.5 is taken for share 2, and 3.5 for 3.
func truncatedIndex(offers bool) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return exchangeBodies(h, offers, func(p map[string]any) {
			if f, ok := p["share_index"].(float64); ok {
				p["share_index"] = math.Trunc(f)
			}
		})
	}
}

// indexZeroIsLast looks a pull's share up in a list indexed by
// share_index-1 with no lower bound, so share 0 reads index -1: the
// holder's last share (Python's shares[-1]), which it then releases.
func indexZeroIsLast(h http.Handler) http.Handler {
	return exchangeBodies(h, false, func(p map[string]any) {
		if p["share_index"] != float64(0) {
			return
		}
		cid, _ := p["challenge_id"].(string)
		for _, e := range boardOf(h, cid) {
			if e.AgentID == p["agent_id"] && len(e.SharesHeld) > 0 {
				p["share_index"] = e.SharesHeld[len(e.SharesHeld)-1]
			}
		}
	})
}

// Faithful neighbours of the eighth round.

// foldedRefusedMalformed refuses, 400 bad_request, a pull or an offer
// naming an agent_id, requester, `to` or challenge_id in upper case: the
// platform issues them in lower case, so such a body names no identifier
// the convention can mean, a reading it leaves open beside the code of
// the condition the body fails.
func foldedRefusedMalformed(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		if req == nil {
			return
		}
		for _, f := range []string{"agent_id", "requester", "to", "challenge_id"} {
			if s, ok := req[f].(string); ok && s != strings.ToLower(s) {
				malformed(req, st, m, f+" is not an identifier the platform issued")
				return
			}
		}
	})
}

// fractionNotHeld refuses a pull of a fractional share_index 404
// not_held and an offer of one 404 offerer_not_holder: a reader that
// takes any JSON number as an index and finds no such share held, a
// reading the convention leaves open beside bad_request.
func fractionNotHeld(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		f, ok := req["share_index"].(float64)
		if req == nil || !ok || f == math.Trunc(f) || m["code"] != "bad_request" {
			return
		}
		offer := req["kind"] == "offer"
		clear(m)
		*st, m["ok"], m["protocol"], m["code"], m["reason"] = http.StatusNotFound, false, rsx.Protocol, "not_held", "no share 2.5 is held"
		if offer {
			m["kind"], m["code"] = "offer", "offerer_not_holder"
		}
	})
}

// malformed rewrites m into a 400 bad_request refusal of req for reason.
func malformed(req map[string]any, st *int, m map[string]any, reason string) {
	offer := req["kind"] == "offer"
	clear(m)
	*st = http.StatusBadRequest
	m["ok"], m["protocol"], m["code"], m["reason"] = false, rsx.Protocol, "bad_request", reason
	if offer {
		m["kind"] = "offer"
	}
}
