package shareexchange_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// The targets of the fourth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// withRequest is h behind resp, which sees each exchange's body decoded
// beside its answer (nil for the platform's routes and bodies that are
// not a JSON object).
func withRequest(h http.Handler, resp func(r *http.Request, req map[string]any, st *int, m map[string]any)) http.Handler {
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		r.Header.Set("X-Slip-Body", string(body))
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		var req map[string]any
		if json.Unmarshal([]byte(r.Header.Get("X-Slip-Body")), &req) != nil {
			req = nil
		}
		if !isPlatform(r) {
			resp(r, req, st, m)
		}
	})
}

// isPlatform reports a request to the platform served beside the
// responder.
func isPlatform(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, sxserver.BasePath+sxserver.PlatformPath+"/")
}

// peer is a board entry as the slips read it.
type peer struct {
	AgentID    string `json:"agent_id"`
	SharesHeld []int  `json:"shares_held"`
}

// boardOf is the live listings of challenge cid on the platform served
// beside the responder, read through h.
func boardOf(h http.Handler, cid string) []peer {
	q := httptest.NewRequest(http.MethodGet, sxserver.BasePath+sxserver.PlatformPath+"/challenge/"+cid+"/peers", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, q)
	var b struct {
		Peers []peer `json:"peers"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &b)
	return b.Peers
}

// offerKey is an offer's (round, holder, share), as a map key, and its
// share_hex.
func offerKey(req map[string]any) (string, string) {
	key, _ := json.Marshal([]any{req["challenge_id"], req["agent_id"], req["share_index"]})
	hex, _ := req["share_hex"].(string)
	return string(key), hex
}

// protocolEchoed names, in a bad_request refusal, the protocol the
// request spoke: the refusal built from the request's fields.
func protocolEchoed(h http.Handler) http.Handler {
	return withRequest(h, func(_ *http.Request, req map[string]any, _ *int, m map[string]any) {
		if p, ok := req["protocol"].(string); ok && m["code"] == "bad_request" {
			m["protocol"] = p
		}
	})
}

// lowestListedBroker names, in a not_broker refusal, the lowest agent_id
// listed on the board, whether or not the roster holds it: "the lowest
// agent_id" read without "in the roster".
func lowestListedBroker(h http.Handler) http.Handler {
	return withRequest(h, func(r *http.Request, req map[string]any, _ *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		if m["code"] != "not_broker" || cid == "" {
			return
		}
		peers := boardOf(h, cid)
		if len(peers) == 0 {
			return
		}
		ids := make([]string, 0, len(peers))
		for _, p := range peers {
			ids = append(ids, p.AgentID)
		}
		sort.Strings(ids)
		m["broker"] = ids[0]
	})
}

// graceCountsUp answers a not_broker refusal's grace_remaining_s with the
// time the board has been combinable: combinable_for_s copied, not
// subtracted from broker_grace_s.
func graceCountsUp(h http.Handler) http.Handler {
	return exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
		if g, ok := m["grace_remaining_s"].(float64); ok {
			m["grace_remaining_s"] = 30 - g
		}
	})(h)
}

// duplicatesByHex keys the offers it has seen by their share_hex too, so
// the same holder's share offered again with another share_hex is
// accepted again.
func duplicatesByHex(h http.Handler) http.Handler {
	return onConflictingCopy(h, func(_ *int, m map[string]any) {
		if m["code"] == "duplicate" {
			m["code"] = "accepted"
		}
	})
}

// onConflictingCopy is h with edit applied to every answer that takes an
// offer of a (round, holder, share) taken before with another share_hex.
func onConflictingCopy(h http.Handler, edit func(st *int, m map[string]any)) http.Handler {
	var mu sync.Mutex
	seen := map[string]string{} // offerKey -> the first share_hex
	return withRequest(h, func(_ *http.Request, req map[string]any, st *int, m map[string]any) {
		if req["kind"] != "offer" || m["ok"] != true {
			return
		}
		key, hex := offerKey(req)
		mu.Lock()
		defer mu.Unlock()
		if first, had := seen[key]; !had {
			seen[key] = hex
		} else if first != hex {
			edit(st, m)
		}
	})
}

// offerRefusalsWithoutKind answers every offer refusal without its kind:
// one refusal builder shared with the pulls.
func offerRefusalsWithoutKind(h http.Handler) http.Handler {
	return exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
		if m["ok"] == false && m["kind"] == "offer" {
			delete(m, "kind")
		}
	})(h)
}

// anyHolderOffers accepts an offer whose offerer is listed when the board
// shows anyone holding the share offered: "the board shows the share
// held" read without "by the offerer".
func anyHolderOffers(h http.Handler) http.Handler {
	return withRequest(h, func(r *http.Request, req map[string]any, st *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		share, _ := req["share_index"].(float64)
		if m["code"] != "offerer_not_holder" || cid == "" {
			return
		}
		for _, p := range boardOf(h, cid) {
			for _, s := range p.SharesHeld {
				if float64(s) == share {
					*st = http.StatusOK
					for k := range m {
						delete(m, k)
					}
					m["ok"], m["protocol"], m["kind"], m["code"] = true, "abp-share-exchange/1", "offer", "accepted"
					return
				}
			}
		}
	})
}

// refusesConflictingOffers refuses, 409 conflicting_offer, an offer of a
// (round, holder, share) it already took with another share_hex: the
// convention keeps the first offer and names no code for the copy, so a
// refusal is as right as duplicate.
func refusesConflictingOffers(h http.Handler) http.Handler {
	return onConflictingCopy(h, func(st *int, m map[string]any) {
		*st = http.StatusConflict
		m["ok"], m["code"], m["reason"] = false, "conflicting_offer", "another share_hex was offered first for this holder and share"
	})
}
