package iyra_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// TestEveryRuleBrokenAloneIsCaught runs one broken target per MUST rule
// the older tables leave out: each breaks one behaviour the contract fixes,
// and the live run restricted to that rule must fail naming it.
func TestEveryRuleBrokenAloneIsCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), ruleCases())
}

// ruleCases are the broken targets of TestEveryRuleBrokenAloneIsCaught.
var ruleCases = tamperTable("one broken rule each", func() []harness.Case {
	return append(identityCases(), append(sessionCases(), gameCases()...)...)
})

// identityCases break the preview, the store, acceptance and the proof.
func identityCases() []harness.Case {
	return []harness.Case{
		{Name: "the preview claims acceptance", Rule: "IYRA-PLAY-PREVIEW", Target: onPath(http.MethodGet, "/tasks/play", func(m map[string]any) { m["accepted"] = true })},
		{Name: "the version document names another version", Rule: "IYRA-STORE-VERSION", Target: onPath(http.MethodGet, "/versions/", func(m map[string]any) { m["version_id"] = "xgv_000000000000000000000001" })},
		{Name: "acceptance without expires_at", Rule: "IYRA-ACCEPT-FIELDS", Target: onPath(http.MethodPost, "/tasks/play/accept", func(m map[string]any) { delete(m, "expires_at") })},
		{Name: "a challenge verifies any agent", Rule: "IYRA-PROOF-CHALLENGE-BINDING", Target: challengeForAnyAgent()},
		{Name: "the assignment without its contract", Rule: "IYRA-ASSIGNMENT-EXACT", Target: onPath(http.MethodGet, "/assignment", func(m map[string]any) { delete(m, "gameplay_contract") })},
		{Name: "the assignment declares ten steps", Rule: "IYRA-LIMITS", Target: onPath(http.MethodGet, "/assignment", func(m map[string]any) { setEverywhere(m, "max_steps", 10) })},
	}
}

// sessionCases break session creation, its keys and the session answers.
func sessionCases() []harness.Case {
	return []harness.Case{
		{Name: "any Idempotency-Key, or none, creates a session", Rule: "IYRA-SESSION-KEY-REQUIRED", Target: creations(func(r *http.Request, n int) {
			if k := r.Header.Get("Idempotency-Key"); len(k) < 8 || len(k) > 128 || strings.ContainsAny(k, " \t") {
				r.Header.Set("Idempotency-Key", fmt.Sprintf("tamper-key-%d", n))
			}
		})},
		{Name: "every creation makes a new session", Rule: "IYRA-SESSION-KEY-IDEMPOTENT", Target: creations(func(r *http.Request, n int) {
			r.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", r.Header.Get("Idempotency-Key"), n))
		})},
		{Name: "the key look-up never finds a session", Rule: "IYRA-IDEMPOTENCY-STATUS", Target: onPathStatus(http.MethodGet, "/idempotency/status", func(st *int, m map[string]any) {
			*st = http.StatusNotFound
			replaceAll(m, map[string]any{"code": "idempotency_key_not_found", "message": "no committed session for this key"})
		})},
		{Name: "any accepted_version_id creates a session", Rule: "IYRA-SESSION-VERSION", Target: tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
			return setBodyField(r, body, "/sessions", "accepted_version_id", iyra.ContractVersion)
		}}},
		{Name: "session answers without actions_url", Rule: "IYRA-SESSION-SHAPE", Target: rewrites{ref(), func(m map[string]any) {
			if _, ok := m["observation"]; ok {
				delete(m, "actions_url")
			}
		}}},
		{Name: "a new session starts with evidence 1", Rule: "IYRA-OBSERVATION-FIELDS", Target: rewrites{ref(), func(m map[string]any) {
			if obs, ok := m["observation"].(map[string]any); ok && m["revision"] == float64(0) {
				obs["evidence"] = 1
			}
		}}},
		{Name: "site facts differ per session", Rule: "IYRA-SITE-FACTS-FIXED", Target: rewrites{ref(), func(m map[string]any) {
			if obs, ok := m["observation"].(map[string]any); ok {
				for _, k := range []string{"archive_testimony", "harbor_testimony", "spire_fact"} {
					if s := str(obs[k]); s != "" {
						obs[k] = s + " (" + str(m["session_id"]) + ")"
					}
				}
			}
		}}},
		{Name: "a revision inside the action is accepted", Rule: "IYRA-ACTION-REVISION-PLACEMENT", Target: acceptsRefusal("revision_inside_action")},
		{Name: "an action without a type is accepted", Rule: "IYRA-ACTION-TYPE-REQUIRED", Target: acceptsRefusal("action_required", "action_type_required")},
		{Name: "legal_actions leaves out withdraw", Rule: "IYRA-LEGAL-CATALOGUE", Target: rewrites{ref(), func(m map[string]any) {
			if la, ok := m["legal_actions"].([]any); ok {
				var kept []any
				for _, a := range la {
					if am, _ := a.(map[string]any); am["type"] != "withdraw" {
						kept = append(kept, a)
					}
				}
				m["legal_actions"] = kept
			}
		}}},
		{Name: "a rejected action moves the revision", Rule: "IYRA-RECOVERY-READ", Target: rejectionsMoveRevision()},
		{Name: "a finished session takes more actions", Rule: "IYRA-TERMINAL-REJECTS", Target: acceptsRefusal("session_finished")},
		{Name: "the replay without integrity", Rule: "IYRA-REPLAY", Target: onPath(http.MethodGet, "/replay", func(m map[string]any) { delete(m, "integrity") })},
		{Name: "a finished session's answer without epilogue", Rule: "IYRA-TERMINAL-SUMMARY", Target: rewrites{ref(), dropWhenFinished("epilogue")}},
	}
}

// gameCases break one game rule each.
func gameCases() []harness.Case {
	return []harness.Case{
		{Name: "a site inspected twice", Rule: "IYRA-SITE-ONCE", Target: acceptsRefusal("site_already_inspected")},
		{Name: "inspection collects nothing", Rule: "IYRA-SITE-REVEAL", Target: observationEdit(func(o map[string]any) { o["collected_sources"] = []any{} })},
		{Name: "an alliance gives signal 2", Rule: "IYRA-ALLY-SIGNAL", Target: withRules(func(r *riyra.Rules) { r.AllySignal = 2 })},
		{Name: "the drifters bring a hidden signal", Rule: "IYRA-FACTION-PARITY", Target: observationEdit(func(o map[string]any) {
			if allies, _ := o["allies"].([]any); containsAny(allies, "drifters") {
				o["signal"] = o["signal"].(float64) + 1
			}
		})},
		{Name: "an epilogue per session, not per ally", Rule: "IYRA-FACTION-CONSEQUENCE", Target: rewrites{ref(), sessionNonceEpilogue}},
		{Name: "a faction recruited twice", Rule: "IYRA-ALLY-REPEAT", Target: acceptsRefusal("faction_already_allied")},
		{Name: "a lone ally listed twice", Rule: "IYRA-ALLY-SET", Target: observationEdit(func(o map[string]any) {
			if allies, _ := o["allies"].([]any); len(allies) == 1 {
				o["allies"] = []any{allies[0], allies[0]}
			}
		})},
		{Name: "the first claim costs evidence", Rule: "IYRA-CLAIM-FIRST", Target: observationEdit(func(o map[string]any) {
			if str(o["selected_claim"]) != "" && o["ending"] == "" {
				o["evidence"] = o["evidence"].(float64) - 1
			}
		})},
		{Name: "the same claim selected again", Rule: "IYRA-CLAIM-SAME", Target: acceptsRefusal("claim_already_selected")},
		{Name: "the claim inferred from the records", Rule: "IYRA-CLAIM-EXPLICIT", Target: observationEdit(func(o map[string]any) {
			if o["archive_checked"] == true && o["spire_checked"] == true && str(o["selected_claim"]) == "" {
				o["selected_claim"] = "relay_fault"
			}
		})},
		{Name: "a broadcast with nothing gathered refused", Rule: "IYRA-BROADCAST-ACCEPTED", Target: tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
			if obs, ok := m["observation"].(map[string]any); ok && isActions(r) && obs["ending"] == riyra.UnverifiedBroadcast && obs["evidence"] == float64(0) {
				*st = http.StatusUnprocessableEntity
				replaceAll(m, map[string]any{"code": "nothing_to_broadcast", "message": "gather something first"})
			}
		}}},
		{Name: "a claim verified without the Spire record", Rule: "IYRA-CLAIM-CORROBORATION", Target: rewrites{ref(), func(m map[string]any) {
			if obs, ok := m["observation"].(map[string]any); ok && obs["ending"] == riyra.UnverifiedBroadcast && obs["spire_checked"] == false && str(obs["selected_claim"]) != "" {
				obs["ending"], m["outcome"] = riyra.TruthReleased, "success"
			}
		}}},
		{Name: "a withdrawal ends unverified", Rule: "IYRA-WITHDRAW", Target: observationEdit(func(o map[string]any) {
			if o["ending"] == riyra.Withdrawn {
				o["ending"] = riyra.UnverifiedBroadcast
			}
		})},
		{Name: "endings under undeclared codes", Rule: "IYRA-REASON-CODES", Target: observationEdit(func(o map[string]any) {
			switch o["ending"] {
			case riyra.Withdrawn:
				o["ending"] = "retreated"
			case riyra.UnverifiedBroadcast:
				o["ending"] = "unverified"
			}
		})},
		{Name: "a finished session not terminal", Rule: "IYRA-TERMINAL-SIGNALS", Target: rewrites{ref(), func(m map[string]any) {
			if m["status"] == "finished" {
				m["terminal"] = false
			}
		}}},
		{Name: "an epilogue while investigating", Rule: "IYRA-EPILOGUE", Target: observationEdit(func(o map[string]any) {
			if o["ending"] == "" {
				o["epilogue"] = "The city waits for the truth."
			}
		})},
		{Name: "investigating after an alliance stays coalition", Rule: "IYRA-CHAPTER-INQUIRY", Target: observationEdit(func(o map[string]any) {
			if allies, _ := o["allies"].([]any); len(allies) > 0 && o["chapter"] == riyra.ChapterInquiry {
				o["chapter"] = riyra.ChapterCoalition
			}
		})},
	}
}

// onPath edits the JSON answers to method requests whose path contains part.
func onPath(method, part string, edit func(m map[string]any)) http.Handler {
	return onPathStatus(method, part, func(_ *int, m map[string]any) { edit(m) })
}

// onPathStatus is onPath for an edit that may change the status too.
func onPathStatus(method, part string, edit func(st *int, m map[string]any)) http.Handler {
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Method == method && strings.Contains(r.URL.Path, part) && *st/100 == 2 {
			edit(st, m)
		}
	}}
}

// setEverywhere sets key to v in every object nested in m that has it.
func setEverywhere(m map[string]any, key string, v any) {
	for k, x := range m {
		switch x := x.(type) {
		case map[string]any:
			setEverywhere(x, key, v)
		case []any:
			for _, e := range x {
				if em, ok := e.(map[string]any); ok {
					setEverywhere(em, key, v)
				}
			}
		}
		if k == key {
			m[k] = v
		}
	}
}

// creations lets edit rewrite each session creation's request, the n-th
// counting from 1.
func creations(edit func(r *http.Request, n int)) http.Handler {
	var mu sync.Mutex
	n := 0
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
			mu.Lock()
			n++
			edit(r, n)
			mu.Unlock()
		}
		return body
	}}
}

// setBodyField sets a JSON body field of the POST requests ending in suffix.
func setBodyField(r *http.Request, body []byte, suffix, field string, v any) []byte {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, suffix) {
		return body
	}
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m == nil {
		return body
	}
	m[field] = v
	out, _ := json.Marshal(m)
	return out
}

// acceptsRefusal answers 200 with the session's unchanged state where the
// reference refuses an action with one of codes.
func acceptsRefusal(codes ...string) http.Handler {
	return acceptsRefusalWhen(func(map[string]any) bool { return true }, codes...)
}

// acceptsRefusalWhen is acceptsRefusal for the sessions whose state when
// holds of.
func acceptsRefusalWhen(when func(state map[string]any) bool, codes ...string) http.Handler {
	inner := ref()
	return tamper{h: inner, resp: func(r *http.Request, st *int, m map[string]any) {
		if !isActions(r) || !containsAny([]any{m["code"]}, codes...) {
			return
		}
		if state := readSession(inner, r); state != nil && when(state) {
			*st = http.StatusOK
			replaceAll(m, state)
		}
	}}
}

// readSession reads the session an action request is for, as its caller.
func readSession(h http.Handler, r *http.Request) map[string]any {
	read := httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/actions"), nil)
	read.Header.Set("Authorization", r.Header.Get("Authorization"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, read)
	var m map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &m) != nil {
		return nil
	}
	return m
}

// rejectionsMoveRevision adds one to the revision every later answer of a
// session shows, for each action the reference refused on it.
func rejectionsMoveRevision() http.Handler {
	var mu sync.Mutex
	shift := map[string]float64{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		_, rest, ok := strings.Cut(r.URL.Path, "/sessions/")
		if !ok {
			return
		}
		id, _, _ := strings.Cut(rest, "/")
		mu.Lock()
		defer mu.Unlock()
		if isActions(r) && *st/100 == 4 {
			shift[id]++
			return
		}
		if rev, ok := m["revision"].(float64); ok {
			m["revision"] = rev + shift[id]
		}
	}}
}

// challengeForAnyAgent verifies a challenge for the agent it was issued
// to, whichever agent_id the caller sent with it.
func challengeForAnyAgent() http.Handler {
	var mu sync.Mutex
	owner := map[string]any{}
	return tamper{h: ref(),
		req: func(r *http.Request, body []byte) []byte {
			if !strings.HasSuffix(r.URL.Path, "/agents/verify") {
				return body
			}
			var m map[string]any
			if json.Unmarshal(body, &m) != nil || m == nil {
				return body
			}
			mu.Lock()
			defer mu.Unlock()
			if a, ok := owner[str(m["challenge_id"])]; ok {
				return setBodyField(r, body, "/agents/verify", "agent_id", a)
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			if strings.HasSuffix(r.URL.Path, "/tasks/play/accept") && *st/100 == 2 {
				mu.Lock()
				owner[str(m["challenge_id"])] = m["agent_id"]
				mu.Unlock()
			}
		}}
}

// containsAny reports whether list holds one of the strings in want.
func containsAny(list []any, want ...string) bool {
	for _, v := range list {
		for _, w := range want {
			if v == w {
				return true
			}
		}
	}
	return false
}

// TestUnlistedLimitsAreCaught covers the rules a live run reaches only
// when the target lets it: a challenge that expires within the minute a
// live run waits, and the quota only the embedded reference can spend.
func TestUnlistedLimitsAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), limitCases())
}

// limitCases: an expiry announced but never enforced (live), and a 429
// without a retry hint (embedded: the quota needs the reference's control).
var limitCases = tamperTable("expiry and quota", func() []harness.Case {
	return []harness.Case{
		{Name: "a challenge announced to expire at once is never enforced", Rule: "IYRA-PROOF-EXPIRY", Target: expiryNotEnforced()},
		{Name: "a 429 without retry_after_seconds or retry_at", Rule: "IYRA-RATE-LIMIT", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			return noRetryHint{server.New(server.Options{Seed: cfg.Seed, Now: cfg.Now, Log: cfg.Log})}
		}},
	}
})

// expiryNotEnforced announces challenges that expire a second after
// acceptance but accepts their solutions for an hour.
func expiryNotEnforced() http.Handler {
	return tamper{h: server.New(server.Options{Seed: 3, ChallengeTTL: time.Hour}), resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/tasks/play/accept") && *st/100 == 2 {
			m["expires_at"] = time.Now().Add(time.Second).UTC().Format(time.RFC3339)
		}
	}}
}

// noRetryHint is the embedded reference (its quota control included)
// answering 429 without a retry hint.
type noRetryHint struct{ *server.Server }

func (s noRetryHint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	harness.Responses(s.Server, func(_ *http.Request, st *int, m map[string]any) {
		if *st == http.StatusTooManyRequests {
			delete(m, "retry_after_seconds")
			delete(m, "retry_at")
		}
	}).ServeHTTP(w, r)
}
