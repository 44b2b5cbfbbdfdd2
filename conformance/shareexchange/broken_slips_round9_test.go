package shareexchange_test

import (
	"net/http"
	"strings"
)

// The targets of the ninth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// trimmedField trims the whitespace around field of each pull (offers
// false) or offer (offers true) before the reference reads it: an
// implementer who "cleans" identifiers (Python's .strip()) and so takes
// an identifier padded with spaces for the one the platform issued.
func trimmedField(offers bool, field string) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return exchangeBodies(h, offers, func(p map[string]any) {
			if s, ok := p[field].(string); ok {
				p[field] = strings.TrimSpace(s)
			}
		})
	}
}

// wrappedIndex reads share_index through a ring of n slots
// (shares[(i-1) % n]) with no upper bound, so share 7 is taken for
// share 2 and 8 for share 3: a pull (offers false) or an offer past n
// lands on a share the agent holds.
func wrappedIndex(offers bool) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return exchangeBodies(h, offers, func(p map[string]any) {
			if f, ok := p["share_index"].(float64); ok && f > 5 && f == float64(int(f)) {
				p["share_index"] = float64((int(f)-1)%5 + 1)
			}
		})
	}
}

// Faithful neighbours of the ninth round.

// paddedRefusedMalformed refuses, 400 bad_request, a pull or an offer
// naming an agent_id, requester, `to` or challenge_id with whitespace
// around it: no identifier the platform issues has any, so such a body
// names none the convention can mean, a reading it leaves open beside
// the code of the condition the body fails.
func paddedRefusedMalformed(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		if req == nil {
			return
		}
		for _, f := range []string{"agent_id", "requester", "to", "challenge_id"} {
			if s, ok := req[f].(string); ok && s != strings.TrimSpace(s) {
				malformed(req, st, m, f+" is not an identifier the platform issued")
				return
			}
		}
	})
}

// pastNMalformed refuses, 400 bad_request, a pull or an offer whose
// share_index lies past n (5): the convention names 1..n, so such an
// index may be read as a malformed body rather than a share not held.
func pastNMalformed(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		if f, ok := req["share_index"].(float64); req != nil && ok && f > 5 {
			malformed(req, st, m, "share_index is outside 1..n")
		}
	})
}

// boolIndex reads an offer's share_index true as 1 (Python's bool is an
// int: isinstance(True, int), shares[True]): an offer of share_index true
// carrying the offerer's share 1 is accepted as an offer of share 1.
func boolIndex(h http.Handler) http.Handler {
	return exchangeBodies(h, true, func(p map[string]any) {
		if p["share_index"] == true {
			p["share_index"] = float64(1)
		}
	})
}
