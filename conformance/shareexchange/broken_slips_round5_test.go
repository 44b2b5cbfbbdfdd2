package shareexchange_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/shareexchange"
	harness "github.com/agentgames/conformance/conformance/tamper"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// The targets of the fifth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// reasonAsMessage spells the board_not_combinable refusal's reason
// "message": the one branch of the handler written apart from the rest.
func reasonAsMessage(_ *http.Request, _ *int, m map[string]any) {
	if m["code"] == "board_not_combinable" {
		m["message"] = m["reason"]
		delete(m, "reason")
	}
}

// alwaysElected codes every release elected_broker, the lapsed grace's
// too: the code of the first release branch written into both.
func alwaysElected(_ *http.Request, _ *int, m map[string]any) {
	if m["code"] == "grace_lapsed" {
		m["code"] = "elected_broker"
	}
}

// releaseWithoutOK drops ok from every release: a success body built
// without the refusals' envelope.
func releaseWithoutOK(_ *http.Request, _ *int, m map[string]any) {
	if m["ok"] == true && m["share_hex"] != nil {
		delete(m, "ok")
	}
}

// acceptedWithoutKind drops kind from an accepted offer's answer: the
// success body shared with the pull's.
func acceptedWithoutKind(_ *http.Request, _ *int, m map[string]any) {
	if m["kind"] == "offer" && m["ok"] == true {
		delete(m, "kind")
	}
}

// unlistedAsNotBroker tells an unlisted requester not_broker: listing
// judged by the requester being registered, not listed, so the next
// branch answers.
func unlistedAsNotBroker(_ *http.Request, _ *int, m map[string]any) {
	if m["code"] == "requester_unlisted" {
		m["code"], m["grace_remaining_s"] = "not_broker", 30
	}
}

// knownChallengesLive takes any challenge_id the platform still reads
// (a closed round's /status answers 200) as the live round: the holder
// checks that the named challenge exists rather than that it is live, and
// decides from the live board.
func knownChallengesLive(h http.Handler) http.Handler {
	platform := sxserver.BasePath + sxserver.PlatformPath
	get := func(path string) (int, map[string]any) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, platform+path, nil))
		var m map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		return rec.Code, m
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isPlatform(r) || r.Method != http.MethodPost {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		_ = json.Unmarshal(body, &req)
		if cid, _ := req["challenge_id"].(string); cid != "" {
			if st, _ := get("/challenge/" + cid + "/status"); st == http.StatusOK {
				_, reg := get("/challenges")
				if active, ok := reg["active"].(map[string]any); ok {
					req["challenge_id"] = active["challenge_id"]
					body, _ = json.Marshal(req)
				}
			}
		}
		rec := serve(h, r, body)
		copyAnswer(w, rec, rec.Body.Bytes())
	})
}

// Faithful neighbours of the fifth round.

// refusalsWithStatus adds the HTTP status and the request's share_index
// to every refusal: more fields, which the convention leaves free.
func refusalsWithStatus(_ *http.Request, st *int, m map[string]any) {
	if m["ok"] == false {
		m["status"], m["retryable"] = *st, *st == http.StatusConflict
	}
}

// staleNamesLive names the live challenge_id on a stale_round refusal: a
// hint the convention leaves free.
func staleNamesLive(_ *http.Request, _ *int, m map[string]any) {
	if m["code"] == "stale_round" {
		m["live_challenge_id"] = "chal-live"
	}
}

// TestLongSlipsAreCaughtUnderLong: a slip only a @long scenario can see
// (the broker's grace is 30 s of the platform's real time, which a live
// run waits out only under --long) fails its rule in a live run with
// --long. It waits ~31 s and is skipped under -short.
func TestLongSlipsAreCaughtUnderLong(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits out the broker's 30 s grace in real time")
	}
	c := harness.Case{Name: "a grace_lapsed release coded elected_broker", Rule: "SX-RELEASE", Target: responder(exchangeOnly(alwaysElected)), Long: true}
	if err := harness.Check(shareexchange.Protocol(), c); err != nil {
		t.Error(err)
	}
}
