package shareexchange_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// slip is one realistic implementer's bug of a share-exchange responder:
// what it is, the rule a live run must fail, and the middleware that
// plants it in front of the unbroken reference.
type slip struct {
	name, rule string
	wrap       func(h http.Handler) http.Handler
}

// exchangeOnly applies edit to the responder's own answers, never to the
// platform served beside it.
func exchangeOnly(edit harness.ResponseEdit) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
			if !strings.Contains(r.URL.Path, sxserver.PlatformPath+"/") {
				edit(r, st, m)
			}
		})
	}
}

// recoded answers a refusal coded from with status and code.
func recoded(from string, status int, code string) func(h http.Handler) http.Handler {
	return exchangeOnly(harness.Recode(from, status, code))
}

// slipCases are bugs an implementer of the convention would plausibly
// write, none of them among the reference's Broken switches
// (docs/detection.md keeps their tally): a status mirrored from the
// platform, a code renamed, a release that names the wrong agent or cuts
// its share, a refusal built without the protocol, a missing field
// defaulted, a refused offer that still counts as seen.
func slipCases() []slip {
	return []slip{
		{"a stale round answered 410, as the platform does", "SX-STALE", recoded("stale_round", 410, "stale_round")},
		{"an unlisted requester answered 404", "SX-UNLISTED", recoded("requester_unlisted", 404, "requester_unlisted")},
		{"requester_is_holder answered 403", "SX-SELF", recoded("requester_is_holder", 403, "requester_is_holder")},
		{"board_not_combinable answered 425 too_early", "SX-NOT-COMBINABLE", recoded("board_not_combinable", 425, "too_early")},
		{"not_held answered 410", "SX-NOT-HELD", recoded("not_held", 410, "not_held")},
		{"the wrong protocol answered 422", "SX-BAD-REQUEST", recoded("bad_request", 422, "bad_request")},
		{"an offer's wrong recipient coded wrong_recipient", "SX-OFFER-NOT-RECIPIENT", recoded("not_recipient", 400, "wrong_recipient")},
		{"an offer from a non-holder answered 403", "SX-OFFER-NOT-HOLDER", recoded("offerer_not_holder", 403, "offerer_not_holder")},
		{"a release coded broker, not elected_broker", "SX-RELEASE", recoded("elected_broker", 200, "broker")},
		{"a release names the requester as agent_id", "SX-RELEASE", namesRequester},
		{"a release cuts the share's last byte", "SX-RELEASE", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if s, ok := m["share_hex"].(string); ok && m["ok"] == true && len(s) > 2 {
				m["share_hex"] = s[:len(s)-2]
			}
		})},
		{"not_broker names the requester as the broker", "SX-NOT-BROKER", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["code"] == "not_broker" {
				m["broker"] = "agent-000000000000"
			}
		})},
		{"refusals but requester_unlisted lack the protocol", "SX-REFUSED-BODY", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == false && m["code"] != "requester_unlisted" {
				delete(m, "protocol")
			}
		})},
		{"a duplicate offer accepted again", "SX-OFFER-ACCEPT", recoded("duplicate", 200, "accepted")},
		{"a pull without a protocol taken as abp-share-exchange/1", "SX-BAD-REQUEST", defaultsProtocol},
		{"a refused offer is remembered, so the valid one is a duplicate", "SX-OFFER-ACCEPT", remembersRefusedOffers},
		{"an accepted offer answered without the protocol", "SX-OFFER-ACCEPT", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["kind"] == "offer" && m["ok"] == true {
				delete(m, "protocol")
			}
		})},
		// Round 2 (docs/detection.md): fresh slips, none in the table above or the Broken switches.
		{"an offer for another challenge answered 410", "SX-OFFER-STALE", offerRecoded("stale_round", 410, "stale_round")},
		{"offerer_is_recipient answered 409", "SX-OFFER-SELF", offerRecoded("offerer_is_recipient", 409, "offerer_is_recipient")},
		{"offerer_unlisted answered 404", "SX-OFFER-UNLISTED", offerRecoded("offerer_unlisted", 404, "offerer_unlisted")},
		{"an offer on a board short of a holder coded not_combinable", "SX-OFFER-NOT-COMBINABLE", offerRecoded("board_not_combinable", 409, "not_combinable")},
		{"a malformed offer answered 422", "SX-OFFER-BAD-REQUEST", offerRecoded("bad_request", 422, "bad_request")},
		{"not_broker answered 409", "SX-NOT-BROKER", recoded("not_broker", 409, "not_broker")},
		{"grace_remaining_s in milliseconds", "SX-NOT-BROKER", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if g, ok := m["grace_remaining_s"].(float64); ok {
				m["grace_remaining_s"] = g * 1000
			}
		})},
		{"a not_broker refusal carries the share for the broker, nested", "SX-NOT-BROKER", sharesOnNotBroker},
		{"a release answered 201", "SX-RELEASE", exchangeOnly(func(_ *http.Request, st *int, m map[string]any) {
			if m["ok"] == true && m["share_hex"] != nil {
				*st = http.StatusCreated
			}
		})},
		{"a release's share_index is a string", "SX-RELEASE", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if i, ok := m["share_index"].(float64); ok && m["ok"] == true {
				m["share_index"] = fmt.Sprint(i)
			}
		})},
		{"refusals carry an empty reason", "SX-REFUSED-BODY", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == false {
				m["reason"] = ""
			}
		})},
		{"a duplicate offer answered 409", "SX-OFFER-ACCEPT", offerRecoded("duplicate", 409, "duplicate")},
		{"a pull for a share not held releases the share the holder holds", "SX-NOT-HELD", releasesWhatItHolds},
		// Round 3 (docs/detection.md): fresh slips, none in the tables above or the Broken switches.
		{"a stale pull coded stale", "SX-STALE", recoded("stale_round", 409, "stale")},
		{"not_held coded share_not_held", "SX-NOT-HELD", recoded("not_held", 404, "share_not_held")},
		{"requester_is_holder answered 409", "SX-SELF", recoded("requester_is_holder", 409, "requester_is_holder")},
		{"requester_unlisted coded unlisted", "SX-UNLISTED", recoded("requester_unlisted", 403, "unlisted")},
		{"board_not_combinable answered 400", "SX-NOT-COMBINABLE", recoded("board_not_combinable", 400, "board_not_combinable")},
		{"not_broker without grace_remaining_s", "SX-NOT-BROKER", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["code"] == "not_broker" {
				delete(m, "grace_remaining_s")
			}
		})},
		{"a release names protocol abp-share-exchange/2", "SX-RELEASE", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == true && m["share_hex"] != nil {
				m["protocol"] = "abp-share-exchange/2"
			}
		})},
		{"refusals carry ok as the string \"false\"", "SX-REFUSED-BODY", exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == false {
				m["ok"] = "false"
			}
		})},
		{"an accepted offer coded ok", "SX-OFFER-ACCEPT", offerRecoded("accepted", 200, "ok")},
		{"not_recipient answered 403", "SX-OFFER-NOT-RECIPIENT", offerRecoded("not_recipient", 403, "not_recipient")},
		{"offerer_not_holder coded not_held", "SX-OFFER-NOT-HOLDER", offerRecoded("offerer_not_holder", 404, "not_held")},
		{"a malformed offer coded invalid", "SX-OFFER-BAD-REQUEST", offerRecoded("bad_request", 400, "invalid")},
		// Round 4 (docs/detection.md): fresh slips, none in the tables above or the reference's Broken switches.
		{"a bad_request refusal names the protocol the request spoke", "SX-REFUSED-BODY", protocolEchoed},
		{"not_broker names the lowest listed agent, not the roster's", "SX-NOT-BROKER", lowestListedBroker},
		{"grace_remaining_s counts up (combinable_for_s)", "SX-NOT-BROKER", graceCountsUp},
		{"a holder's share offered again with another share_hex accepted again", "SX-OFFER-ACCEPT", duplicatesByHex},
		{"offer refusals without kind", "SX-REFUSED-BODY", offerRefusalsWithoutKind},
		{"an offer accepted when anyone on the board holds the share", "SX-OFFER-NOT-HOLDER", anyHolderOffers},
		// Round 5 (docs/detection.md): fresh slips, none in the tables above or the reference's Broken switches.
		{"board_not_combinable's reason spelled message", "SX-REFUSED-BODY", exchangeOnly(reasonAsMessage)},
		// (and "a grace_lapsed release coded elected_broker", SX-RELEASE: seen only under --long, TestLongSlipsAreCaughtUnderLong)
		{"a release without ok", "SX-RELEASE", exchangeOnly(releaseWithoutOK)},
		{"an accepted offer without kind", "SX-OFFER-ACCEPT", exchangeOnly(acceptedWithoutKind)},
		{"an unlisted requester told not_broker (listing judged by registration)", "SX-UNLISTED", exchangeOnly(unlistedAsNotBroker)},
		{"a closed round's challenge_id taken as the live one", "SX-STALE", knownChallengesLive},
		// Round 6 (docs/detection.md): fresh slips, none in the tables above or the reference's Broken switches.
		{"combinable_now taken as k distinct shares listed (pull)", "SX-NOT-COMBINABLE", distinctSharesCombine},
		{"combinable_now taken as k listed holders (offer)", "SX-OFFER-NOT-COMBINABLE", holdersCombine},
		{"combinable_now taken as a maximum coalition of exactly k", "SX-RELEASE", exactlyK},
		{"a pull's protocol compared without case", "SX-BAD-REQUEST", protocolFolded},
		{"an offer's protocol matched by prefix", "SX-OFFER-BAD-REQUEST", protocolPrefixed},
		{"a pull's share_index given as a string read as a number", "SX-BAD-REQUEST", shareIndexParsed},
		{"a share the holder was handed released though the board does not show it held", "SX-NOT-HELD", walletHeld},
		{"a delisted requester counted as listed", "SX-UNLISTED", listedEver},
		{"a release's share_hex prefixed 0x", "SX-RELEASE", exchangeOnly(hexPrefixed)},
		{"requester_is_holder tested after the broker rule", "SX-SELF", selfAfterBroker},
		// Round 7 (docs/detection.md): fresh slips, none in the tables above or the reference's Broken switches.
		{"a stale pull judged by its round number, not its challenge_id", "SX-STALE", staleByRound(false)},
		{"a stale offer judged by its round number, not its challenge_id", "SX-OFFER-STALE", staleByRound(true)},
		{"the board read once per round, so a requester that left is still listed", "SX-UNLISTED", cachedBoard},
		{"offers kept one per (round, share), so a second holder's is a duplicate", "SX-OFFER-ACCEPT", inboxByShare},
		{"offers kept one per (round, holder), so a holder's second share is a duplicate", "SX-OFFER-ACCEPT", inboxByHolder},
		{"offers kept one per (holder, share) across rounds, so the next round's is a duplicate", "SX-OFFER-ACCEPT", inboxAcrossRounds},
		{"a pull without a challenge_id taken as the live round", "SX-BAD-REQUEST", missingChallengeLive},
		{"an offer without to taken as addressed to this endpoint", "SX-OFFER-BAD-REQUEST", missingToIsMe},
		{"an offer of share n refused: share_index checked below n", "SX-OFFER-ACCEPT", indexBelowN(true)},
		{"a pull of share n answered bad_request: share_index checked below n", "SX-NOT-HELD", indexBelowN(false)},
		// Round 8 (docs/detection.md): fresh slips, none in the tables above or the reference's Broken switches.
		{"a requester compared without case, so the broker's agent_id in upper case is listed", "SX-UNLISTED", foldedField(false, "requester")},
		{"a pull's challenge_id compared without case", "SX-STALE", foldedField(false, "challenge_id")},
		{"an offer's challenge_id compared without case", "SX-OFFER-STALE", foldedField(true, "challenge_id")},
		{"an offer's to compared without case", "SX-OFFER-NOT-RECIPIENT", foldedField(true, "to")},
		{"a pull's share_index 2.5 truncated to share 2", "SX-BAD-REQUEST", truncatedIndex(false)},
		{"an offer's share_index 3.5 truncated to share 3", "SX-OFFER-BAD-REQUEST", truncatedIndex(true)},
		{"a pull of share_index 0 read as the holder's last share (shares[-1])", "SX-NOT-HELD", indexZeroIsLast},
		// Round 9 (docs/detection.md): fresh slips, none in the tables above or the reference's Broken switches.
		{"a requester trimmed, so the broker's agent_id padded with spaces is listed", "SX-UNLISTED", trimmedField(false, "requester")},
		{"a pull's challenge_id trimmed", "SX-STALE", trimmedField(false, "challenge_id")},
		{"an offer's to trimmed", "SX-OFFER-NOT-RECIPIENT", trimmedField(true, "to")},
		{"an offer's challenge_id trimmed", "SX-OFFER-STALE", trimmedField(true, "challenge_id")},
		{"an offer's agent_id trimmed, so a padded offerer is listed", "SX-OFFER-UNLISTED", trimmedField(true, "agent_id")},
		{"a pull's share_index past n wrapped round n (share 7 read as 2)", "SX-NOT-HELD", wrappedIndex(false)},
		{"an offer's share_index past n wrapped round n (share 8 read as 3)", "SX-OFFER-NOT-HOLDER", wrappedIndex(true)},
		{"an offer's share_index true read as share 1", "SX-OFFER-BAD-REQUEST", boolIndex},
	}
}

// namesRequester answers a release with the requester's agent_id in
// place of the holder's: a body built from the wrong field.
func namesRequester(h http.Handler) http.Handler {
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		var p struct{ Requester string }
		if json.Unmarshal(body, &p) == nil && p.Requester != "" {
			r.Header.Set("X-Requester", p.Requester)
		}
		return body
	}, func(r *http.Request, _ *int, m map[string]any) {
		if m["ok"] == true && m["share_hex"] != nil && r.Header.Get("X-Requester") != "" {
			m["agent_id"] = r.Header.Get("X-Requester")
		}
	})
}

// defaultsProtocol fills in a pull's missing protocol before the
// reference reads it: a decoder with a default.
func defaultsProtocol(h http.Handler) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if r.Method == http.MethodPost && !strings.Contains(r.URL.Path, sxserver.PlatformPath+"/") && json.Unmarshal(body, &p) == nil && p["requester"] != nil {
			if _, has := p["protocol"]; !has {
				p["protocol"] = "abp-share-exchange/1"
				body, _ = json.Marshal(p)
			}
		}
		return body
	})
}

// remembersRefusedOffers marks an offer's (holder, share) as seen even
// when it was refused, so that a later valid offer of it is answered
// duplicate: state kept from a refused write.
func remembersRefusedOffers(h http.Handler) http.Handler {
	var mu sync.Mutex
	refused := map[string]bool{}
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		var o struct {
			Kind       string `json:"kind"`
			AgentID    string `json:"agent_id"`
			ShareIndex int    `json:"share_index"`
		}
		if json.Unmarshal(body, &o) == nil && o.Kind == "offer" {
			r.Header.Set("X-Offer", fmt.Sprintf("%s/%d", o.AgentID, o.ShareIndex))
		}
		return body
	}, func(r *http.Request, _ *int, m map[string]any) {
		k := r.Header.Get("X-Offer")
		if k == "" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case m["ok"] == false:
			refused[k] = true
		case m["code"] == "accepted" && refused[k]:
			m["code"] = "duplicate"
		}
	})
}

// responder is the reference responder and its platform behind wrap.
func responder(wrap func(h http.Handler) http.Handler) http.Handler {
	return wrap(sxserver.New(skeleton.Config{Seed: 3, Now: time.Now}))
}

// TestImplementerSlipsAreCaught: each realistic bug of slipCases, planted
// alone in front of the reference responder and served over loopback,
// fails its rule in a live run.
func TestImplementerSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, c := range slipCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if err := harness.Check(shareexchange.Protocol(), harness.Case{Name: c.name, Rule: c.rule, Target: responder(c.wrap)}); err != nil {
				t.Error(err)
			}
		})
	}
}

// faithfulNeighbours are legal readings next to the slips: refusals with
// more fields and other words, a release and an accepted offer with more
// fields, grace_remaining_s in whole seconds rounded up; round 2: a share
// in upper-case hex, a not_broker refusal naming the roster, an offer's
// refusal echoing what it was sent; round 3: refusals with a retry hint,
// a release naming the broker rule it followed; round 4: a conflicting
// copy of an offer refused, grace_remaining_s rounded down; round 5:
// refusals with their status, a stale_round naming the live challenge;
// round 6: a not_held naming the holdings, a board_not_combinable naming
// the shortfall; round 7: a round below 1 refused as malformed, a body
// missing a field refused by the condition the gap fails; round 8: an
// identifier in another case and a fractional index refused; round 9: an
// identifier padded with spaces and an index past n refused 400
// bad_request.
func faithfulNeighbours() map[string]func(h http.Handler) http.Handler {
	return map[string]func(h http.Handler) http.Handler{
		"refusals with more fields and other words": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == false {
				m["reason"], m["docs"] = "nicht freigegeben", "https://responder.example/codes"
			}
		}),
		"a release with the round and challenge beside the share": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == true && m["share_hex"] != nil {
				m["round"], m["released_at"] = 1, "2026-01-01T00:00:00Z"
			}
		}),
		"an accepted offer with a receipt": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["kind"] == "offer" && m["ok"] == true {
				m["receipt"] = "r-1"
			}
		}),
		"grace_remaining_s in whole seconds, rounded up": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if g, ok := m["grace_remaining_s"].(float64); ok {
				m["grace_remaining_s"] = math.Ceil(g)
			}
		}),
		// Round 2 (docs/detection.md).
		"a release's share_hex in upper case": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if h, ok := m["share_hex"].(string); ok && m["ok"] == true {
				m["share_hex"] = strings.ToUpper(h)
			}
		}),
		"a not_broker refusal names the roster too": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["code"] == "not_broker" {
				m["roster"] = []any{m["broker"]}
			}
		}),
		"an offer's refusal echoes its challenge and share index": exchangeOnly(func(r *http.Request, _ *int, m map[string]any) {
			if m["kind"] == "offer" && m["ok"] == false {
				m["challenge_id"], m["share_index"] = "echoed", 2
			}
		}),
		// Round 3 (docs/detection.md).
		"refusals with a retry_after_s hint": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == false {
				m["retry_after_s"] = 5
			}
		}),
		"a release naming the broker rule it followed": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if m["ok"] == true && m["share_hex"] != nil {
				m["rule"], m["roster_size"] = "lowest agent_id", 3
			}
		}),
		// Round 4 (docs/detection.md).
		"a conflicting copy of an offer refused 409 conflicting_offer": refusesConflictingOffers,
		"grace_remaining_s in whole seconds, rounded down": exchangeOnly(func(_ *http.Request, _ *int, m map[string]any) {
			if g, ok := m["grace_remaining_s"].(float64); ok {
				m["grace_remaining_s"] = math.Floor(g)
			}
		}),
		// Round 5 (docs/detection.md).
		"refusals carrying their HTTP status and a retryable flag": exchangeOnly(refusalsWithStatus),
		"a stale_round refusal naming the live challenge":          exchangeOnly(staleNamesLive),
		// Round 6 (docs/detection.md).
		"a not_held refusal naming the shares the board shows held": exchangeOnly(notHeldNamesHoldings),
		"a board_not_combinable refusal naming the shortfall":       exchangeOnly(notCombinableNamesShortfall),
		// Round 7 (docs/detection.md).
		"a round below 1 refused 400 bad_request":                      roundBelowOne,
		"an incomplete request refused by the condition its gap fails": refusedByCondition,
		// Round 8 (docs/detection.md).
		"an identifier in another case refused 400 bad_request": foldedRefusedMalformed,
		"a fractional share_index refused as a share not held":  fractionNotHeld,
		// Round 9 (docs/detection.md).
		"an identifier padded with spaces refused 400 bad_request": paddedRefusedMalformed,
		"a share_index past n refused 400 bad_request":             pastNMalformed,
	}
}

// TestFaithfulNeighboursOfTheSlipsPass: each legal reading passes every
// responder check, failing, warning and erring nothing.
func TestFaithfulNeighboursOfTheSlipsPass(t *testing.T) {
	t.Parallel()
	for name, wrap := range faithfulNeighbours() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(responder(wrap))
			defer srv.Close()
			rep := harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{shareexchange.Protocol()},
				Target: srv.URL + sxserver.BasePath, Seed: 11, NoProperties: true}, 10)
			for _, r := range rep.Results {
				if r.Status == verdict.Warn {
					t.Errorf("%s: warned %s %s", r.Name, r.FailedRule, r.Message)
				}
			}
		})
	}
}
