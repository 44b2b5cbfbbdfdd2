package shareexchange_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// The targets of the sixth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// proximityOf is the coalition_proximity block of challenge cid's board
// on the platform served beside the responder, read through h: what a
// slip recomputes combinable_now or the broker from.
func proximityOf(h http.Handler, cid string) map[string]any {
	q := httptest.NewRequest(http.MethodGet, sxserver.BasePath+sxserver.PlatformPath+"/challenge/"+cid+"/peers", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, q)
	var b struct {
		Proximity map[string]any `json:"coalition_proximity"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &b)
	return b.Proximity
}

// wallet is the shares the runner handed the responder's agent through
// the control surface (SX-CONTROL), as a slip that decides from its own
// store rather than the board would read them.
type wallet struct {
	mu     sync.Mutex
	shares map[string]map[string]string // agent -> share index -> share_hex
}

// keep records an adoption's shares; other requests pass untouched.
func (wl *wallet) keep(r *http.Request, body []byte) {
	if !strings.HasSuffix(r.URL.Path, "/control/adopt") {
		return
	}
	var a struct {
		AgentID string            `json:"agent_id"`
		Shares  map[string]string `json:"shares"`
	}
	if json.Unmarshal(body, &a) == nil && a.AgentID != "" {
		wl.mu.Lock()
		defer wl.mu.Unlock()
		if wl.shares == nil {
			wl.shares = map[string]map[string]string{}
		}
		wl.shares[a.AgentID] = a.Shares
	}
}

// hex is agent's share_hex for share, "" when the runner handed none.
func (wl *wallet) hex(agent string, share any) string {
	f, _ := share.(float64)
	wl.mu.Lock()
	defer wl.mu.Unlock()
	return wl.shares[agent][strconv.Itoa(int(f))]
}

// recording is h behind resp, which sees each exchange's body decoded
// beside its answer and the wallet the runner handed the responder.
func recording(h http.Handler, resp func(wl *wallet, req map[string]any, st *int, m map[string]any)) http.Handler {
	wl := &wallet{}
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		wl.keep(r, body)
		r.Header.Set("X-Slip-Body", string(body))
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		var req map[string]any
		if isPlatform(r) || json.Unmarshal([]byte(r.Header.Get("X-Slip-Body")), &req) != nil {
			return
		}
		resp(wl, req, st, m)
	})
}

// release turns m into the release of the pull req under code.
func release(wl *wallet, req map[string]any, st *int, m map[string]any, code string) {
	hex := wl.hex(req["agent_id"].(string), req["share_index"])
	if hex == "" {
		return
	}
	clear(m)
	*st = http.StatusOK
	m["ok"], m["protocol"], m["code"] = true, rsx.Protocol, code
	m["agent_id"], m["share_index"], m["share_hex"] = req["agent_id"], req["share_index"], hex
}

// holdersOf is the board's listings holding at least one share, with the
// distinct shares they hold between them.
func holdersOf(h http.Handler, cid string) (holders []string, distinct int) {
	seen := map[int]bool{}
	for _, p := range boardOf(h, cid) {
		if len(p.SharesHeld) > 0 {
			holders = append(holders, p.AgentID)
		}
		for _, s := range p.SharesHeld {
			seen[s] = true
		}
	}
	return holders, len(seen)
}

// distinctSharesCombine takes the board as combinable once k distinct
// shares are listed ("k distinct shares listed", not the matching) and
// names its lowest holder the broker: the proximity's
// distinct_shares_listed read as combinable_now.
func distinctSharesCombine(h http.Handler) http.Handler {
	return recording(h, func(wl *wallet, req map[string]any, st *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		if m["code"] != "board_not_combinable" || req["kind"] == "offer" {
			return
		}
		holders, distinct := holdersOf(h, cid)
		if distinct >= 3 && len(holders) > 0 && req["requester"] == holders[0] {
			release(wl, req, st, m, "elected_broker")
		}
	})
}

// holdersCombine accepts an offer once k listed agents hold a share each,
// whatever shares they are: "k distinct agents" read without "k distinct
// shares", so three holders of two shares count as combinable.
func holdersCombine(h http.Handler) http.Handler {
	return recording(h, func(_ *wallet, req map[string]any, st *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		if m["code"] != "board_not_combinable" || req["kind"] != "offer" {
			return
		}
		if holders, _ := holdersOf(h, cid); len(holders) >= 3 {
			clear(m)
			*st = http.StatusOK
			m["ok"], m["protocol"], m["kind"], m["code"] = true, rsx.Protocol, "offer", "accepted"
		}
	})
}

// exactlyK takes the board as combinable only while its maximum coalition
// is exactly k (max_coalition == k_required): a holder to spare makes a
// board the slip refuses board_not_combinable.
func exactlyK(h http.Handler) http.Handler {
	return recording(h, func(_ *wallet, req map[string]any, st *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		if m["ok"] != true || cid == "" {
			return
		}
		prox := proximityOf(h, cid)
		if prox["max_coalition"] != prox["k_required"] {
			clear(m)
			*st = http.StatusConflict
			m["ok"], m["protocol"], m["code"], m["reason"] = false, rsx.Protocol, "board_not_combinable", "combinable_now is false"
			if req["kind"] == "offer" {
				m["kind"] = "offer"
			}
		}
	})
}

// protocolFolded compares a pull's protocol without its letters' case
// (strings.EqualFold): "ABP-Share-Exchange/1" is read as the convention.
func protocolFolded(h http.Handler) http.Handler {
	return rewritesProtocol(h, false, func(p string) bool { return strings.EqualFold(p, rsx.Protocol) })
}

// protocolPrefixed takes an offer whose protocol starts with the
// convention's name (strings.HasPrefix): "abp-share-exchange/12" is read
// as abp-share-exchange/1.
func protocolPrefixed(h http.Handler) http.Handler {
	return rewritesProtocol(h, true, func(p string) bool { return strings.HasPrefix(p, rsx.Protocol) })
}

// rewritesProtocol hands the reference the convention's protocol in place
// of one same accepts, in offers (offers true) or pulls.
func rewritesProtocol(h http.Handler, offers bool, same func(string) bool) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if isPlatform(r) || r.Method != http.MethodPost || json.Unmarshal(body, &p) != nil || (p["kind"] == "offer") != offers {
			return body
		}
		if s, ok := p["protocol"].(string); ok && s != rsx.Protocol && same(s) {
			p["protocol"] = rsx.Protocol
			body, _ = json.Marshal(p)
		}
		return body
	})
}

// shareIndexParsed reads a pull's share_index given as a string ("2") as
// the number it spells: a lenient int() where the convention names an
// int.
func shareIndexParsed(h http.Handler) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if isPlatform(r) || r.Method != http.MethodPost || json.Unmarshal(body, &p) != nil {
			return body
		}
		if s, ok := p["share_index"].(string); ok {
			if n, err := strconv.Atoi(s); err == nil {
				p["share_index"] = n
				body, _ = json.Marshal(p)
			}
		}
		return body
	})
}

// walletHeld releases any share the responder was handed, whether or not
// the board shows its agent holding it: "holds share_index" read from the
// holder's own store, not engine-verified.
func walletHeld(h http.Handler) http.Handler {
	return recording(h, func(wl *wallet, req map[string]any, st *int, m map[string]any) {
		if m["code"] != "not_held" || req["kind"] == "offer" {
			return
		}
		cid, _ := req["challenge_id"].(string)
		if broker, _ := proximityOf(h, cid)["broker"].(string); broker != "" && req["requester"] == broker {
			release(wl, req, st, m, "elected_broker")
		}
	})
}

// listedEver counts every agent the platform ever listed as listed: the
// responder follows the board's list events and never its removals, so a
// delisted requester is told not_broker, the next branch.
func listedEver(h http.Handler) http.Handler {
	var mu sync.Mutex
	ever := map[string]bool{}
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		var l struct {
			AgentID string `json:"agent_id"`
			Remove  bool   `json:"remove"`
		}
		if isPlatform(r) && strings.HasSuffix(r.URL.Path, "/peers") && json.Unmarshal(body, &l) == nil && !l.Remove && l.AgentID != "" {
			mu.Lock()
			ever[l.AgentID] = true
			mu.Unlock()
		}
		r.Header.Set("X-Slip-Body", string(body))
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		var req map[string]any
		if isPlatform(r) || m["code"] != "requester_unlisted" || json.Unmarshal([]byte(r.Header.Get("X-Slip-Body")), &req) != nil {
			return
		}
		mu.Lock()
		was := ever[req["requester"].(string)]
		mu.Unlock()
		cid, _ := req["challenge_id"].(string)
		if prox := proximityOf(h, cid); was && prox["broker"] != nil {
			*st, m["code"], m["broker"], m["grace_remaining_s"] = http.StatusForbidden, "not_broker", prox["broker"], 30
		}
	})
}

// hexPrefixed writes a release's share_hex with a 0x prefix, as a
// language's hex() prints it.
func hexPrefixed(_ *http.Request, _ *int, m map[string]any) {
	if h, ok := m["share_hex"].(string); ok && m["ok"] == true {
		m["share_hex"] = "0x" + h
	}
}

// selfAfterBroker tests requester == agent_id after the broker rule, so a
// holder pulling from itself is told not_broker: the self check written
// last.
func selfAfterBroker(h http.Handler) http.Handler {
	return recording(h, func(_ *wallet, req map[string]any, st *int, m map[string]any) {
		cid, _ := req["challenge_id"].(string)
		if m["code"] != "requester_is_holder" {
			return
		}
		if broker, _ := proximityOf(h, cid)["broker"].(string); broker != "" {
			*st, m["code"], m["broker"], m["grace_remaining_s"] = http.StatusForbidden, "not_broker", broker, 29.5
		}
	})
}

// Faithful neighbours of the sixth round.

// notHeldNamesHoldings names, in a not_held refusal, the shares the board
// shows the holder holding: more fields, no share_hex.
func notHeldNamesHoldings(_ *http.Request, _ *int, m map[string]any) {
	if m["code"] == "not_held" {
		m["held"] = []int{2}
	}
}

// notCombinableNamesShortfall adds the board's shortfall to a
// board_not_combinable refusal: more fields, which the convention leaves
// free.
func notCombinableNamesShortfall(_ *http.Request, _ *int, m map[string]any) {
	if m["code"] == "board_not_combinable" {
		m["agents_short"], m["max_coalition"] = 1, 2
	}
}
