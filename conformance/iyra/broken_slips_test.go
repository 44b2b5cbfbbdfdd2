package iyra_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	harness "github.com/agentgames/conformance/conformance/tamper"
	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// slip and neighbour are the shared harness's rows (conformance/tamper),
// declared here so the tables stay unkeyed literals.
type (
	slip      harness.Slip
	neighbour harness.Neighbour
)

// slipCases are bugs an implementer of the seed would plausibly write,
// none of them in the older tables (docs/detection.md keeps their tally):
// key limits off by one or a pattern short of its punctuation, a retry
// compared byte by byte, a refusal answered 200, a gate compared with >,
// a score or an outcome of its own, private values under innocent keys,
// a stale state after a write, a replay one action short.
func slipCases() []slip {
	return append([]slip{
		{"a 129-character Idempotency-Key is accepted", "IYRA-SESSION-KEY-REQUIRED", func() http.Handler {
			return keysEdited(func(k string) string { return cutTo(k, 129, 128) })
		}},
		{"a 7-character Idempotency-Key is accepted", "IYRA-SESSION-KEY-REQUIRED", func() http.Handler {
			return keysEdited(func(k string) string {
				if len(k) == 7 {
					return k + "0"
				}
				return k
			})
		}},
		{"the key pattern leaves out '.' and ':'", "IYRA-SESSION-KEY-REQUIRED", keyPatternShort},
		{"a repeated creation compared byte by byte", "IYRA-SESSION-KEY-IDEMPOTENT", repeatsComparedByBytes},
		{"a stale revision answered 200 with its error", "IYRA-REVISION-STALE", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if isActions(r) && *st/100 == 4 && strings.Contains(str(m["code"]), "revision") {
					*st = http.StatusOK
				}
			}}
		}},
		{"the trust gate needs trust above 2", "IYRA-ALLY-TRUST", func() http.Handler {
			return withRules(func(r *riyra.Rules) { r.AllyMinTrust = 3 })
		}},
		{"a verified ending scores evidence plus signal", "IYRA-SCORE", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				if o["ending"] == riyra.TruthReleased {
					m["score"] = o["evidence"].(float64) + o["signal"].(float64)
				}
			})
		}},
		{"a spent budget reported as a draw", "IYRA-OUTCOME", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				if o["ending"] == riyra.BudgetExhausted {
					m["outcome"] = "draw"
				}
			})
		}},
		{"the truth under the replay's hint", "IYRA-VISIBILITY", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				v, _ := riyra.DefaultPack().Variant(str(m["variant"]))
				if v.Truth == "" {
					v, _ = riyra.DefaultPack().Variant("")
				}
				m["hint"] = v.Truth
			})
		}},
		{"the field notes under the observation's context", "IYRA-VISIBILITY", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				v, _ := riyra.DefaultPack().Variant(str(m["variant"]))
				o["context"] = v.FieldNotes
			})
		}},
		{"the api_key repeated as token in the session answer", "IYRA-KEY-ONCE", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if _, ok := m["observation"]; ok {
					m["token"] = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				}
			}}
		}},
		{"the fallback path serves the state cached at creation", "IYRA-RECOVERY-FALLBACK-PATH", cachedFallback},
		{"an accepted action answers the state read before it", "IYRA-SITE-EFFECTS", actionsAnswerTheStateBefore},
		{"a replay without credentials answered 200 with its error", "IYRA-AUTH-BEARER", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if *st == http.StatusUnauthorized && strings.HasSuffix(r.URL.Path, "/replay") {
					*st = http.StatusOK
				}
			}}
		}},
		{"the replay leaves out the last action", "IYRA-REPLAY-FAITHFUL", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if a, ok := m["actions"].([]any); ok && len(a) > 0 {
					m["actions"] = a[:len(a)-1]
				}
			})
		}},
	},
		// Round 2 (docs/detection.md): fresh slips, none in the tables
		// above; their targets are in broken_slips_round2_test.go.
		append(roundTwoSlips(),
			// Round 3 (docs/detection.md): fresh again; their targets are
			// in broken_slips_round3_test.go.
			append(roundThreeSlips(),
				// Round 4: in broken_slips_round4_test.go.
				append(roundFourSlips(),
					// Round 5: in broken_slips_round5_test.go.
					append(roundFiveSlips(),
						// Round 6: in broken_slips_round6_test.go.
						append(roundSixSlips(),
							// Round 7: in broken_slips_round7_test.go.
							append(roundSevenSlips(),
								// Round 8: in broken_slips_round8_test.go.
								roundEightSlips()...)...)...)...)...)...)...)
}

// cutTo cuts k to n bytes when it is exactly at bytes long: a limit
// checked one past its bound, then stored as the bound allows.
func cutTo(k string, at, n int) string {
	if len(k) == at {
		return k[:n]
	}
	return k
}

// keysEdited rewrites each session creation's Idempotency-Key with edit
// before the reference sees it.
func keysEdited(edit func(string) string) http.Handler {
	return creations(func(r *http.Request, _ int) {
		if k := r.Header.Get("Idempotency-Key"); k != "" {
			r.Header.Set("Idempotency-Key", edit(k))
		}
	})
}

// keyPatternShort refuses a well-formed key holding '.' or ':', as the
// pattern [A-Za-z0-9_-] written from memory does.
func keyPatternShort() http.Handler {
	return harness.Route(ref(), func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && strings.ContainsAny(r.Header.Get("Idempotency-Key"), ".:")
	}, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"code":"invalid_idempotency_key","message":"Idempotency-Key must match ^[A-Za-z0-9_-]{8,128}$"}`))
	}))
}

// repeatsComparedByBytes refuses a creation whose key was first used with
// other bytes, even when they decode to the same JSON object.
func repeatsComparedByBytes() http.Handler {
	var mu sync.Mutex
	first := map[string][]byte{}
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		k := r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key")
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := first[k]; !ok {
			first[k] = body
		} else if !bytes.Equal(prev, body) {
			r.Header.Set("Idempotency-Key", r.Header.Get("Idempotency-Key")+"-bytes")
			r.Header.Set("X-Refuse", "1")
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Header.Get("X-Refuse") != "" {
			*st = http.StatusConflict
			replaceAll(m, map[string]any{"code": "idempotency_key_reused", "message": "this Idempotency-Key was used with another request"})
		}
	}}
}

// observationOf applies edit to every session answer and its observation.
func observationOf(edit func(m, o map[string]any)) http.Handler {
	return rewrites{ref(), func(m map[string]any) {
		if o, ok := m["observation"].(map[string]any); ok {
			edit(m, o)
		}
	}}
}

// cachedFallback serves state_url at its own /state/ path from the
// engine, and the contract's /sessions/{id} from the first answer it gave
// for the session: a fallback route behind a cache never invalidated.
func cachedFallback() http.Handler {
	var mu sync.Mutex
	cache := map[string][]byte{}
	inner := tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if u, ok := m["state_url"].(string); ok {
			m["state_url"] = strings.Replace(u, "/sessions/", "/state/", 1)
		}
	}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		fallback := r.Method == http.MethodGet && strings.HasPrefix(p, server.BasePath+"/sessions/") && strings.Count(p, "/") == 4
		if strings.HasPrefix(p, server.BasePath+"/state/") {
			r.URL.Path = server.BasePath + "/sessions/" + strings.TrimPrefix(p, server.BasePath+"/state/")
		}
		mu.Lock()
		body, cached := cache[p]
		mu.Unlock()
		if fallback && cached {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		if fallback && rec.Code == http.StatusOK {
			mu.Lock()
			cache[p] = rec.Body.Bytes()
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// actionsAnswerTheStateBefore answers an accepted action with the session
// as it was read before the action: a handler that returns the state it
// loaded instead of the one it saved.
func actionsAnswerTheStateBefore() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isActions(r) {
			inner.ServeHTTP(w, r)
			return
		}
		before := readSession(inner, r)
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		out := rec.Body.Bytes()
		if rec.Code/100 == 2 && before != nil {
			out, _ = json.Marshal(before)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(out)
	})
}

// TestImplementerSlipsAreCaught: each realistic bug of slipCases, planted
// alone and served over loopback, fails its rule in a live run.
func TestImplementerSlipsAreCaught(t *testing.T) {
	t.Parallel()
	harness.Slips(t, iyra.Protocol(), slipCases(), nil)
}

// faithfulNeighbours take choices the seed leaves open next to the slips
// above: a stale revision refused 409 where the reference says 400 (the
// exact status is a reference choice), a key reused answered with its
// original session, the look-up naming the session by its state_url only,
// and a missing key refused 403.
func faithfulNeighbours() []neighbour {
	return append([]neighbour{
		{"a stale revision refused 409", []string{"IYRA-REVISION-STALE", "IYRA-RECOVERY-READ"}, func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if isActions(r) && *st/100 == 4 && strings.Contains(str(m["code"]), "revision") {
					*st = http.StatusConflict
				}
			}}
		}},
		{"a reused key answered with its original session", []string{"IYRA-SESSION-KEY-REUSE", "IYRA-SESSION-KEY-IDEMPOTENT"}, reuseAnsweredWithTheOriginal},
		{"the look-up names the session by its state_url only", []string{"IYRA-IDEMPOTENCY-STATUS"}, func() http.Handler {
			return onPath(http.MethodGet, "/idempotency/status", func(m map[string]any) {
				if id := str(m["session_id"]); id != "" {
					delete(m, "session_id")
					m["state_url"] = server.BasePath + "/sessions/" + id
				}
			})
		}},
		{"a missing key refused 403", []string{"IYRA-AUTH-BEARER"}, func() http.Handler {
			return tamper{h: ref(), resp: func(_ *http.Request, st *int, _ map[string]any) {
				if *st == http.StatusUnauthorized {
					*st = http.StatusForbidden
				}
			}}
		}},
	},
		// Round 2 (docs/detection.md): in broken_slips_round2_test.go.
		append(roundTwoNeighbours(),
			// Round 3: in broken_slips_round3_test.go.
			append(roundThreeNeighbours(),
				// Round 4: in broken_slips_round4_test.go.
				append(roundFourNeighbours(),
					// Round 5: in broken_slips_round5_test.go.
					append(roundFiveNeighbours(),
						// Round 6: in broken_slips_round6_test.go.
						append(roundSixNeighbours(),
							// Round 7: in broken_slips_round7_test.go.
							append(roundSevenNeighbours(),
								// Round 8: in broken_slips_round8_test.go.
								roundEightNeighbours()...)...)...)...)...)...)...)
}

// reuseAnsweredWithTheOriginal answers a creation refused as a key reuse
// with the session the key first created, which the rule allows.
func reuseAnsweredWithTheOriginal() http.Handler {
	var mu sync.Mutex
	first := map[string]map[string]any{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") {
			return
		}
		k := r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key")
		mu.Lock()
		defer mu.Unlock()
		if m["code"] == "idempotency_key_reused" && first[k] != nil {
			*st = http.StatusOK
			replaceAll(m, first[k])
			return
		}
		if _, ok := first[k]; !ok && *st/100 == 2 {
			first[k] = m
		}
	}}
}

// TestFaithfulNeighboursOfTheSlipsPass: each legal reading of
// faithfulNeighbours, run on its rules alone, fails and errs nothing and
// decides at least one check.
func TestFaithfulNeighboursOfTheSlipsPass(t *testing.T) {
	t.Parallel()
	harness.Neighbours(t, iyra.Protocol(), faithfulNeighbours(), nil)
}
