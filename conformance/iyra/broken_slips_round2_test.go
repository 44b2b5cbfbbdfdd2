package iyra_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// The targets of the second round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundTwoSlips are the second round's fresh slips: limits refused at
// their exact bound, gates one off, a catalogue trimmed by precondition,
// inputs matched case-insensitively, a look-up keyed by agent alone,
// private values nested under innocent keys.
func roundTwoSlips() []slip {
	return []slip{
		{"a 128-character Idempotency-Key is refused", "IYRA-SESSION-KEY-REQUIRED", func() http.Handler { return keyLengthRefused(128) }},
		{"an 8-character Idempotency-Key is refused", "IYRA-SESSION-KEY-REQUIRED", func() http.Handler { return keyLengthRefused(8) }},
		{"a claim change costs no evidence", "IYRA-CLAIM-CHANGE", func() http.Handler {
			return withRules(func(r *riyra.Rules) { r.ChangeCost = 0 })
		}},
		{"legal_actions leaves out ally while trust is short", "IYRA-LEGAL-CATALOGUE", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				if t, ok := o["trust"].(float64); ok && t < 2 {
					m["legal_actions"] = without(m["legal_actions"], riyra.TypeAlly)
				}
			})
		}},
		{"the ninth action answers the session still open", "IYRA-BUDGET", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				o, _ := m["observation"].(map[string]any)
				if isActions(r) && o != nil && o["ending"] == riyra.BudgetExhausted {
					o["ending"], o["phase"] = "", riyra.PhaseInvestigating
					m["terminal"], m["status"], m["outcome"] = false, riyra.StatusActive, riyra.InProgress
				}
			}}
		}},
		{"a withdrawal scores its evidence", "IYRA-SCORE-UNVERIFIED", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				if o["ending"] == riyra.Withdrawn {
					m["score"] = o["evidence"]
				}
			})
		}},
		{"an untouched session's replay not verified", "IYRA-REPLAY", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if in, ok := m["integrity"].(map[string]any); ok {
					in["verified"] = false
				}
			})
		}},
		{"a stale revision refused after the action is applied", "IYRA-REVISION-STALE", staleActionsApplied},
		{"another agent's key reads a session", "IYRA-AUTH-BEARER", readsForAnyAgent},
		{"an unknown key's look-up answers the agent's latest session", "IYRA-IDEMPOTENCY-STATUS", latestSessionForUnknownKeys},
		{"the api_key nested in the replay's agent", "IYRA-KEY-ONCE", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/replay") && *st == http.StatusOK {
					m["agent"] = map[string]any{"credential": strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}
				}
			}}
		}},
		{"the truth under the broadcast's hint in legal_actions", "IYRA-VISIBILITY", func() http.Handler {
			return observationOf(func(m, _ map[string]any) {
				v, _ := riyra.DefaultPack().Variant(str(m["variant"]))
				if v.Truth == "" {
					v, _ = riyra.DefaultPack().Variant("")
				}
				for _, a := range asAnyList(m["legal_actions"]) {
					if am, ok := a.(map[string]any); ok && am["type"] == riyra.TypeBroadcast {
						am["hint"] = v.Truth
					}
				}
			})
		}},
	}
}

// roundTwoNeighbours are the second round's faithful readings: an
// identifier or an action type matched case-insensitively (the seed fixes
// the spellings it sends, not how a server compares them).
func roundTwoNeighbours() []neighbour {
	return []neighbour{
		{"action types matched case-insensitively", []string{"IYRA-LEGAL-CATALOGUE"}, func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte { return foldedType(r, body) }}
		}},
		{"accepted_version_id compared case-insensitively", []string{"IYRA-SESSION-VERSION"}, func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") || json.Unmarshal(body, &m) != nil {
					return body
				}
				return setBodyField(r, body, "/sessions", "accepted_version_id", strings.ToLower(str(m["accepted_version_id"])))
			}}
		}},
	}
}

// keyLengthRefused refuses a creation whose Idempotency-Key is exactly n
// characters long, as a bound written with < or > in place of <= or >=.
func keyLengthRefused(n int) http.Handler {
	return harness.Route(ref(), func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && len(r.Header.Get("Idempotency-Key")) == n
	}, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"code":"invalid_idempotency_key","message":"Idempotency-Key must be 8 to 128 characters"}`))
	}))
}

// foldedType lower-cases an action's type before the reference reads it:
// a dispatcher switching on strings.ToLower(type).
func foldedType(r *http.Request, body []byte) []byte {
	var m map[string]any
	if !isActions(r) || json.Unmarshal(body, &m) != nil {
		return body
	}
	a, ok := m["action"].(map[string]any)
	if !ok {
		return body
	}
	if t, ok := a["type"].(string); ok {
		a["type"] = strings.ToLower(t)
	}
	out, _ := json.Marshal(m)
	return out
}

// latestSessionForUnknownKeys answers a look-up of an unknown key with the
// agent's latest session: a look-up keyed by agent when the key misses.
func latestSessionForUnknownKeys() http.Handler {
	var mu sync.Mutex
	latest := map[string]string{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		who := r.Header.Get("Authorization")
		mu.Lock()
		defer mu.Unlock()
		if id := str(m["session_id"]); id != "" && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
			latest[who] = id
		}
		if strings.HasSuffix(r.URL.Path, "/idempotency/status") && *st == http.StatusNotFound && latest[who] != "" {
			*st = http.StatusOK
			replaceAll(m, map[string]any{"idempotency_key": r.Header.Get("Idempotency-Key"), "status": "completed", "session_id": latest[who]})
		}
	}}
}

// without is list with the entries of type typ left out.
func without(list any, typ string) []any {
	out := []any{}
	for _, a := range asAnyList(list) {
		if am, ok := a.(map[string]any); !ok || am["type"] != typ {
			out = append(out, a)
		}
	}
	return out
}

// asAnyList is v as a JSON array, or nil.
func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// staleActionsApplied refuses a stale revision only after applying the
// action at the session's current revision: a guard checked after the
// write instead of before it.
func staleActionsApplied() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec := httptest.NewRecorder()
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner.ServeHTTP(rec, r)
		var m map[string]any
		if isActions(r) && rec.Code/100 == 4 && json.Unmarshal(rec.Body.Bytes(), &m) == nil && strings.Contains(str(m["code"]), "revision") {
			if cur := readSession(inner, r); cur != nil {
				var in map[string]any
				if json.Unmarshal(body, &in) == nil && in != nil {
					in["revision"] = cur["revision"]
					again, _ := json.Marshal(in)
					re := r.Clone(r.Context())
					re.Body = io.NopCloser(bytes.NewReader(again))
					re.ContentLength = int64(len(again))
					inner.ServeHTTP(httptest.NewRecorder(), re)
				}
			}
		}
		copyRecorded(w, rec)
	})
}

// readsForAnyAgent serves a session's state to any authenticated agent, as
// its owner: the ownership check left out of the read route only.
func readsForAnyAgent() http.Handler {
	inner := ref()
	var mu sync.Mutex
	owner := map[string]string{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		var m map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		mu.Lock()
		if id := str(m["session_id"]); id != "" && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
			owner[id] = r.Header.Get("Authorization")
		}
		id := strings.TrimPrefix(r.URL.Path, server.BasePath+"/sessions/")
		who := owner[id]
		mu.Unlock()
		if r.Method == http.MethodGet && !strings.Contains(id, "/") && rec.Code == http.StatusNotFound && who != "" && strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			re := r.Clone(r.Context())
			re.Header.Set("Authorization", who)
			rec = httptest.NewRecorder()
			inner.ServeHTTP(rec, re)
		}
		copyRecorded(w, rec)
	})
}

// copyRecorded writes rec's answer to w.
func copyRecorded(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}
