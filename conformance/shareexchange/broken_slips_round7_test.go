package shareexchange_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// The targets of the seventh round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// liveRound is the platform's live challenge_id and round number, read
// through h from its registry: what a slip decides staleness from.
func liveRound(h http.Handler) (string, float64) {
	q := httptest.NewRequest(http.MethodGet, sxserver.BasePath+sxserver.PlatformPath+"/challenges", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, q)
	var reg struct {
		Active struct {
			ChallengeID string  `json:"challenge_id"`
			Round       float64 `json:"round"`
		} `json:"active"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &reg)
	return reg.Active.ChallengeID, reg.Active.Round
}

// exchangeBodies rewrites each pull (offers false) or offer (offers true)
// sent to the responder with edit before the reference reads it; the
// platform's routes and other bodies pass untouched.
func exchangeBodies(h http.Handler, offers bool, edit func(p map[string]any)) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if isPlatform(r) || r.Method != http.MethodPost || strings.HasSuffix(r.URL.Path, "/control/adopt") ||
			json.Unmarshal(body, &p) != nil || (p["kind"] == "offer") != offers {
			return body
		}
		edit(p)
		body, _ = json.Marshal(p)
		return body
	})
}

// staleByRound judges a pull or an offer stale by its round number, not
// its challenge_id: the number is simpler to compare than an id, and the
// body carries both. A request naming the live round's number is read as
// live whatever challenge_id it names, and one naming another number as
// stale.
func staleByRound(offers bool) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return exchangeBodies(h, offers, func(p map[string]any) {
			cid, round := liveRound(h)
			if p["round"] == round {
				p["challenge_id"] = cid
			} else {
				p["challenge_id"] = "chal-stale-by-round"
			}
		})
	}
}

// cachedBoard reads the board once per round, at the round's first
// exchange, and decides every later one from that copy: a requester that
// was listed then and has left since is still taken as listed, and told
// not_broker, the next branch.
func cachedBoard(h http.Handler) http.Handler {
	var mu sync.Mutex
	listedAt := map[string]map[string]bool{} // challenge_id -> agents listed at its first exchange
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		if cid == "" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if listedAt[cid] == nil {
			listedAt[cid] = map[string]bool{}
			for _, p := range boardOf(h, cid) {
				listedAt[cid][p.AgentID] = true
			}
		}
		requester, _ := req["requester"].(string)
		broker, _ := proximityOf(h, cid)["broker"].(string)
		if m["code"] == "requester_unlisted" && listedAt[cid][requester] && broker != "" {
			*st, m["code"], m["broker"], m["grace_remaining_s"] = http.StatusForbidden, "not_broker", broker, 29.0
		}
	})
}

// dedupedBy answers duplicate to an offer the reference accepted when
// key, built from the offer, was accepted before: a collector's inbox
// keyed by less than (round, holder, share).
func dedupedBy(key func(req map[string]any) string) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		var mu sync.Mutex
		seen := map[string]bool{}
		return withRequest(h, func(_ *http.Request, req map[string]any, _ *int, m map[string]any) {
			if req["kind"] != "offer" || m["code"] != "accepted" {
				return
			}
			k := key(req)
			mu.Lock()
			defer mu.Unlock()
			if seen[k] {
				m["code"] = "duplicate"
			}
			seen[k] = true
		})
	}
}

// inboxByShare keeps one offer per (round, share): the collector needs one
// share of each index to combine, so a second holder's offer of it is
// taken as the same offer.
var inboxByShare = dedupedBy(func(req map[string]any) string {
	return fmt.Sprint(req["challenge_id"], "/", req["share_index"])
})

// inboxByHolder keeps one offer per (round, holder): "once per (round,
// target, share)" read as once per holder, so a holder's second share is
// a duplicate.
var inboxByHolder = dedupedBy(func(req map[string]any) string {
	return fmt.Sprint(req["challenge_id"], "/", req["agent_id"])
})

// inboxAcrossRounds keeps one offer per (holder, share) whatever the
// round: the inbox is never keyed by the round, so a holder's share of
// the next round is answered duplicate.
var inboxAcrossRounds = dedupedBy(func(req map[string]any) string {
	return fmt.Sprint(req["agent_id"], "/", req["share_index"])
})

// missingChallengeLive takes a pull without a challenge_id as one for the
// live round, the holder filling it in from the board it reads.
func missingChallengeLive(h http.Handler) http.Handler {
	return exchangeBodies(h, false, func(p map[string]any) {
		if _, has := p["challenge_id"]; !has {
			p["challenge_id"], _ = liveRound(h)
		}
	})
}

// missingToIsMe takes an offer without `to` as addressed to the agent
// this endpoint answers for (the last one the runner handed it): a
// single-agent collector's default.
func missingToIsMe(h http.Handler) http.Handler {
	wl := &wallet{}
	offers := exchangeBodies(h, true, func(p map[string]any) {
		if _, has := p["to"]; has {
			return
		}
		wl.mu.Lock()
		defer wl.mu.Unlock()
		for agent := range wl.shares {
			p["to"] = agent
		}
	})
	return harness.Requests(offers, func(r *http.Request, body []byte) []byte {
		wl.keep(r, body)
		return body
	})
}

// indexBelowN checks a share_index against n exclusively (share_index <
// n, the bound of a 0-based array), so share n itself is refused 400
// bad_request: in an offer (offers true) or a pull.
func indexBelowN(offers bool) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
			if req == nil || (req["kind"] == "offer") != offers || req["share_index"] != float64(5) {
				return
			}
			clear(m)
			*st = http.StatusBadRequest
			m["ok"], m["protocol"], m["code"], m["reason"] = false, rsx.Protocol, "bad_request", "share_index out of range"
			if offers {
				m["kind"] = "offer"
			}
		})
	}
}

// Faithful neighbours of the seventh round.

// roundBelowOne refuses, 400 bad_request, a pull or an offer whose round
// is not a round number (below 1): the convention names "the live round
// number" and rounds count from 1, so such a body is malformed, a reading
// the convention leaves open.
func roundBelowOne(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		r, ok := req["round"].(float64)
		if req == nil || !ok || r >= 1 {
			return
		}
		offer := req["kind"] == "offer"
		clear(m)
		*st = http.StatusBadRequest
		m["ok"], m["protocol"], m["code"], m["reason"] = false, rsx.Protocol, "bad_request", "round must be the live round number"
		if offer {
			m["kind"] = "offer"
		}
	})
}

// missingFieldCodes are the conditions a body without the field fails,
// besides being malformed: no challenge_id is not the live round, no
// requester has no listing, no `to` is not this endpoint's agent.
var missingFieldCodes = map[string]struct {
	status int
	code   string
}{
	"challenge_id": {http.StatusConflict, "stale_round"},
	"requester":    {http.StatusForbidden, "requester_unlisted"},
	"to":           {http.StatusBadRequest, "not_recipient"},
}

// refusedByCondition answers a bad_request for a body missing one of
// missingFieldCodes' fields with that field's condition instead: the
// reading that decides first and validates later.
func refusedByCondition(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		if req == nil || m["code"] != "bad_request" || req["protocol"] != rsx.Protocol {
			return
		}
		for field, c := range missingFieldCodes {
			if _, has := req[field]; !has && (field != "to" || req["kind"] == "offer") && (field != "requester" || req["kind"] != "offer") {
				*st, m["code"], m["reason"] = c.status, c.code, "no "+field
				return
			}
		}
	})
}
