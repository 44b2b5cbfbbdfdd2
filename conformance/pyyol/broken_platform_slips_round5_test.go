package pyyol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/pyyol/stakes"
	"github.com/agentgames/conformance/reference/skeleton"
)

// stakeSlip is one realistic bug of the platform's stake-tier HTTP
// surface (docs/detection.md, "Pyyol platform, round 5"): what it is, the
// rule a live pyyol-gateway run (the protocol whose features carry the
// stake rules) must fail for it, and the platform it makes.
type stakeSlip struct {
	name, rule string
	platform   func() http.Handler
}

// platformStakeSlipsRound5 are the fifth round of platform slips, on the
// admin tier API the earlier rounds left unplanted: validators written
// the implementer's way (zero refused but not a negative amount, equal
// amounts taken as increasing, keys unique among the enabled tiers only,
// amounts compared in the array's order, not by ordering), a set stored
// before it is validated, max_bid held against the cheapest tier, and an
// admin
// check that takes any token of the platform token's shape.
func platformStakeSlipsRound5() []stakeSlip {
	return []stakeSlip{
		{"only a zero amount is refused; a negative one is taken", "PYYOL-STAKES-POSITIVE", validatedBy(zeroOnly)},
		{"equal amounts pass as increasing", "PYYOL-STAKES-INCREASING", validatedBy(nonDecreasing)},
		{"tier keys are unique among the enabled tiers only", "PYYOL-STAKES-UNIQUE", validatedBy(enabledOnly)},
		{"amounts are compared in the array's order, not by ordering", "PYYOL-STAKES-ADMIN", validatedBy(byPosition)},
		{"a refused set is stored before it is validated, then answered 400", "PYYOL-STAKES-INCREASING", storedThenValidated},
		{"max_bid is held against the cheapest tier, not the one asked for", "PYYOL-STAKES-LIMITS", maxBidOnCheapest},
		{"the admin API takes any bearer of the platform token's shape", "PYYOL-STAKES-ADMIN-AUTH", adminCheckedBy(func(token string) bool {
			return strings.HasPrefix(token, "pt_")
		})},
	}
}

// faithfulStakePlatformsRound5 take readings the docs leave open next to
// the round-5 slips: a refused set answered 422 with the platform's own
// error code (the MUST rules ask a 4xx and an unchanged set only), and a
// wrong admin token answered 403 (refused either way).
func faithfulStakePlatformsRound5() []stakeSlip {
	return []stakeSlip{
		{"a refused tier set is answered 422 tier_set_rejected", "", refusedAs(http.StatusUnprocessableEntity)},
		{"a wrong admin token is answered 403 forbidden", "", adminCheckedBy(func(token string) bool { return token == server.AdminToken }, http.StatusForbidden)},
	}
}

// stakeGateway is the reference platform with tamper and the short turn
// timeout of the broken-platform table.
func stakeGateway(tamper server.Tamper) http.Handler {
	return server.New(server.Options{Tamper: tamper, TurnTimeout: 600 * time.Millisecond})
}

// isTierPut reports whether r replaces a game's tier set.
func isTierPut(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/admin/games/") && strings.HasSuffix(r.URL.Path, "/stakes")
}

// validatedBy is a platform whose tier PUT runs validate, the
// implementer's validator, in front of a store that keeps what it is
// handed (the reference with AcceptsAnyTiers): a set validate refuses is
// answered 400 invalid_tiers, any other is stored.
func validatedBy(validate func([]stakes.Tier) bool) func() http.Handler {
	return func() http.Handler {
		store := stakeGateway(server.AcceptsAnyTiers)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !isTierPut(r) {
				store.ServeHTTP(w, r)
				return
			}
			raw, _ := io.ReadAll(r.Body)
			var body struct {
				Tiers []stakes.Tier `json:"tiers"`
			}
			if json.Unmarshal(raw, &body) == nil && body.Tiers != nil && !validate(body.Tiers) {
				tierRefusal(w, http.StatusBadRequest, "invalid_tiers")
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(raw))
			store.ServeHTTP(w, r)
		})
	}
}

// storedThenValidated is a platform that writes a tier set to its store
// and validates it after: a bad set is answered 400 invalid_tiers and
// stays in force.
func storedThenValidated() http.Handler {
	store := stakeGateway(server.AcceptsAnyTiers)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isTierPut(r) {
			store.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		rec := httptest.NewRecorder()
		store.ServeHTTP(rec, r)
		var body struct {
			Tiers []stakes.Tier `json:"tiers"`
		}
		if json.Unmarshal(raw, &body) == nil && stakes.Validate(body.Tiers) != nil {
			tierRefusal(w, http.StatusBadRequest, "invalid_tiers")
			return
		}
		copyRecorded(w, rec)
	})
}

// maxBidOnCheapest is a platform that asks whether the agent can afford
// ranked play at all: max_bid is compared with the cheapest tier, 100,
// whatever tier the entry names. It is the reference with the owner's
// max_bid raised to the asked tier's amount for the one queue call when
// the cheapest tier fits under it, and put back after.
func maxBidOnCheapest() http.Handler {
	ref := stakeGateway("")
	var mu sync.Mutex
	bids := map[string]int64{}    // bearer -> the max_bid its owner set
	agents := map[string]string{} // bearer -> agent id
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, _ := skeleton.BearerToken(r)
		if r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/limits") {
			raw, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			var body map[string]int64
			if json.Unmarshal(raw, &body) == nil {
				if bid, ok := body["max_bid"]; ok {
					mu.Lock()
					bids[token] = bid
					parts := strings.Split(r.URL.Path, "/")
					agents[token] = parts[len(parts)-2]
					mu.Unlock()
				}
			}
			ref.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/goofspiel/queue") {
			ref.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body struct{ Tier string }
		json.Unmarshal(raw, &body)
		mu.Lock()
		bid, set := bids[token]
		agent := agents[token]
		mu.Unlock()
		asked := defaultStake(body.Tier)
		if set && asked > bid && bid >= defaultStake("low") {
			setMaxBid(ref, r, agent, token, asked)
			defer setMaxBid(ref, r, agent, token, bid)
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		ref.ServeHTTP(w, r)
	})
}

// defaultStake is the amount of a tier of the docs' menu (0 if none).
func defaultStake(key string) int64 {
	for _, t := range stakes.Default() {
		if t.Key == key {
			return t.Coins
		}
	}
	return 0
}

// setMaxBid sets agent's max_bid in h as its owner, through the route
// the owner uses.
func setMaxBid(h http.Handler, r *http.Request, agent, token string, bid int64) {
	raw, _ := json.Marshal(map[string]int64{"max_bid": bid})
	path := strings.TrimSuffix(r.URL.Path, "/games/goofspiel/queue") + "/agents/" + agent + "/limits"
	req := httptest.NewRequest(http.MethodPut, path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)
}

// copyRecorded writes a recorded answer to w.
func copyRecorded(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

// tierRefusal answers a refused tier set.
func tierRefusal(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "message": "the tier set breaks the validation"})
}

// refusedAs is the reference platform answering every refused tier set
// with status and its own error code: the reference decides, only the
// answer's form differs.
func refusedAs(status int) func() http.Handler {
	return func() http.Handler {
		ref := stakeGateway("")
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !isTierPut(r) {
				ref.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, r)
			if rec.Code == http.StatusBadRequest {
				tierRefusal(w, status, "tier_set_rejected")
				return
			}
			copyRecorded(w, rec)
		})
	}
}

// adminCheckedBy is a platform whose admin API lets in a bearer allowed
// takes (the reference with OpenAdmin behind it) and answers any other
// with refusal (401 unless given).
func adminCheckedBy(allowed func(token string) bool, refusal ...int) func() http.Handler {
	status := http.StatusUnauthorized
	if len(refusal) > 0 {
		status = refusal[0]
	}
	return func() http.Handler {
		open := stakeGateway(server.OpenAdmin)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			token, _ := skeleton.BearerToken(r)
			if strings.Contains(r.URL.Path, "/admin/") && !allowed(token) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status)})
				return
			}
			open.ServeHTTP(w, r)
		})
	}
}

// zeroOnly refuses a zero amount, a repeated key and amounts that fall by
// ordering, and takes a negative amount: `coins == 0` for "positive".
func zeroOnly(ts []stakes.Tier) bool {
	for _, t := range ts {
		if t.Coins == 0 {
			return false
		}
	}
	return uniqueKeys(ts) && risesBy(byOrdering(ts), func(a, b int64) bool { return b > a })
}

// nonDecreasing refuses a non-positive amount and a repeated key, and
// takes equal amounts by ordering: `<` where `<=` was meant.
func nonDecreasing(ts []stakes.Tier) bool {
	return positive(ts) && uniqueKeys(ts) && risesBy(byOrdering(ts), func(a, b int64) bool { return b >= a })
}

// enabledOnly validates the menu the set would make, the enabled tiers,
// and nothing of the disabled ones.
func enabledOnly(ts []stakes.Tier) bool {
	var on []stakes.Tier
	for _, t := range ts {
		if t.Enabled {
			on = append(on, t)
		}
	}
	return stakes.Validate(on) == nil
}

// byPosition validates every documented condition but compares the
// amounts in the order the array lists them, not by ordering.
func byPosition(ts []stakes.Tier) bool {
	return positive(ts) && uniqueKeys(ts) && risesBy(ts, func(a, b int64) bool { return b > a })
}

// positive reports whether every amount is above zero.
func positive(ts []stakes.Tier) bool {
	for _, t := range ts {
		if t.Coins <= 0 {
			return false
		}
	}
	return true
}

// uniqueKeys reports whether no key appears twice.
func uniqueKeys(ts []stakes.Tier) bool {
	seen := map[string]bool{}
	for _, t := range ts {
		if seen[t.Key] {
			return false
		}
		seen[t.Key] = true
	}
	return true
}

// byOrdering is a copy of ts sorted by ordering.
func byOrdering(ts []stakes.Tier) []stakes.Tier {
	out := append([]stakes.Tier{}, ts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ordering < out[j].Ordering })
	return out
}

// risesBy reports whether each amount of ts after the first is ok beside
// the one before it.
func risesBy(ts []stakes.Tier, ok func(before, after int64) bool) bool {
	for i := 1; i < len(ts); i++ {
		if !ok(ts[i-1].Coins, ts[i].Coins) {
			return false
		}
	}
	return true
}

// stakeSettings are the flags the stake slips are checked under: the
// admin token and a short wait for the public menu.
var stakeSettings = gatewaySettings.With("admin-token", server.AdminToken).With("tier-propagation", "1s")

// TestPlatformStakeSlipsAreCaught: each stake slip, served alone over
// loopback and checked live with only its rule selected, fails naming
// that rule.
func TestPlatformStakeSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, s := range platformStakeSlipsRound5() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(s.platform())
			t.Cleanup(srv.Close)
			rep := runLive(t, pyyol.Gateway(), srv.URL, s.rule, stakeSettings)
			if rep.ExitCode() != 1 || !rep.Failed(s.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), s.rule, failedRules(rep))
			}
		})
	}
}

// TestFaithfulStakePlatformsFailNothing: a platform taking a reading the
// stake-tier docs leave open fails none of the stake-tier rules.
func TestFaithfulStakePlatformsFailNothing(t *testing.T) {
	t.Parallel()
	rules := []string{"PYYOL-STAKES-PUBLIC", "PYYOL-STAKES-ADMIN", "PYYOL-STAKES-ADMIN-AUTH", "PYYOL-STAKES-POSITIVE",
		"PYYOL-STAKES-UNIQUE", "PYYOL-STAKES-INCREASING"}
	for _, s := range faithfulStakePlatformsRound5() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(s.platform())
			t.Cleanup(srv.Close)
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
				Rules: rules, Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: stakeSettings})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				if r.Status == verdict.Fail || r.Status == verdict.Error {
					t.Errorf("%s %s: %s %s", r.Status, r.Name, r.FailedRule, r.Message)
				}
			}
			if rep.ExitCode() != 0 {
				t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
			}
		})
	}
}
