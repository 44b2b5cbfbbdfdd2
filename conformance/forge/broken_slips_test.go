package forge_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	refforge "github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// slip is one realistic implementer's bug: what it is, the rule a live
// run must fail for it, and the broken target.
type slip struct {
	name, rule string
	target     func() http.Handler
	authoring  bool
}

// slipCases are bugs an implementer of the seed would plausibly write,
// none of them in the older tables (docs/detection.md keeps their tally):
// limits off by one, counts in bytes, wrong statuses and codes, secrets
// and private values under innocent names, a stale progress, a retry
// compared byte by byte.
func slipCases() []slip {
	return append([]slip{
		{"a 41-code-point nickname is cut to 40 and accepted", "FORGE-NICKNAME-LENGTH", nicknamesCut, false},
		{"the nickname limit counts bytes, not code points", "FORGE-NICKNAME-LENGTH", nicknamesInBytes, false},
		{"a taken nickname on registration is 409 CONFLICT, not NICKNAME_TAKEN", "FORGE-NICKNAME-UNIQUE", func() http.Handler {
			return recodes(http.MethodPost, "/api/agents", "NICKNAME_TAKEN", 409, "CONFLICT")
		}, false},
		{"a taken nickname on rename is 400, not 409", "FORGE-PATCH-CONFLICT", func() http.Handler {
			return recodes(http.MethodPatch, "/api/agent", "NICKNAME_TAKEN", 400, "NICKNAME_TAKEN")
		}, false},
		{"the self read repeats the key as token", "FORGE-KEY-ONCE", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if is(r, http.MethodGet, "/api/agent") {
					m["token"] = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				}
			}}
		}, false},
		{"Retry-After is a Go duration (\"1s\"), not seconds", "FORGE-RATE-LIMIT", func() http.Handler {
			return tamper{h: stoppedRef(), hdr: func(_ *http.Request, h http.Header) {
				if s := h.Get("Retry-After"); s != "" {
					h.Set("Retry-After", s+"s")
				}
			}}
		}, false},
		{"the query budget allows one query past it", "FORGE-QUERY-BUDGET", budgetPlusOne, false},
		{"a submission after a wrong one is judged again", "FORGE-ONE-SUBMISSION", judgesAgainAfterWrong, false},
		{"a correct submission returns the progress read before it", "FORGE-SUBMIT-ADVANCES", func() http.Handler { return submitLags("chainProgress") }, false},
		{"atFrontier is true one level early", "FORGE-AT-FRONTIER", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if l, ok := m["currentLevel"].(map[string]any); ok && l["position"] == float64(10) {
					m["atFrontier"] = true
				}
			})
		}, false},
		{"an Idempotency-Key with a control character is accepted", "FORGE-IDEMPOTENCY-KEY-FORMAT", controlKeysAccepted, true},
		{"a reused key with another body returns the first publication", "FORGE-IDEMPOTENCY-REUSED", reusedKeyReplays, true},
		{"the session echoes the challenge's expected outputs as answers", "FORGE-PRIVATE-SERVER-ONLY", func() http.Handler {
			j := &judge{sessions: map[string]sessionSeen{}}
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if is(r, http.MethodPost, "/api/sessions") {
					j.see(m)
				}
				if is(r, http.MethodPost, "/query") {
					if right, ok := j.rightForSession(r); ok {
						m["debug"] = right
					}
				}
			}}
		}, false},
		{"chainProgress is a string", "FORGE-PROGRESS", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if n, ok := m["chainProgress"].(float64); ok {
					m["chainProgress"] = strconv.Itoa(int(n))
				}
			})
		}, false},
		// Round 2 (docs/detection.md): fresh slips, none in the tables above.
		{"a nickname of exactly 40 code points is refused", "FORGE-NICKNAME-LENGTH", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, body []byte) (int, any, bool) {
				var reg struct{ Name string }
				at := is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &reg) == nil && utf8.RuneCountInString(reg.Name) >= 40
				return 400, map[string]any{"error": map[string]any{"code": "NICKNAME_TOO_LONG", "message": "under 40 characters"}}, at
			}}
		}, false},
		{"a rename to a taken nickname is refused 409 but applied", "FORGE-PATCH-CONFLICT", renameAppliedAnyway, false},
		{"the rename answer nests the apiKey under agent.credentials", "FORGE-PATCH-NO-KEY", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if is(r, http.MethodPatch, "/api/agent") {
					m["agent"] = map[string]any{"credentials": map[string]any{"apiKey": strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}}
				}
			}}
		}, false},
		{"the leaderboards are cached for a minute", "FORGE-RANK-PROGRESS", func() http.Handler { return cached(http.MethodGet, "/api/leaderboards", false) }, false},
		{"racing submissions of one session are both judged", "FORGE-ONE-SUBMISSION", racingSubmissions, false},
		{"the self read is cached per key, stale after a rename", "FORGE-NICKNAME-PATCH", func() http.Handler { return cached(http.MethodGet, "/api/agent", true) }, false},
		{"the solvers' leaderboard rows carry each agent's apiKey as its id", "FORGE-KEY-ONCE", keysOnTheBoard, false},
		{"the progress read is cached per key, stale after a clear", "FORGE-SUBMIT-ADVANCES", func() http.Handler { return cached(http.MethodGet, "/api/progress", true) }, false},
		{"a nickname taken by a rename is free again for registration", "FORGE-NICKNAME-UNIQUE", renamesFreeForRegistration, false},
		{"GET /spec/dsl.md asks for a key", "FORGE-DOC-DSL", func() http.Handler { return keyed("/spec/dsl.md") }, false},
		{"GET /api/leaderboards asks for a key", "FORGE-LEADERBOARDS", func() http.Handler { return keyed("/api/leaderboards") }, false},
		{"a 429 on GET /api/agent comes without Retry-After", "FORGE-RATE-LIMIT", func() http.Handler {
			return tamper{h: stoppedRef(), hdr: func(r *http.Request, h http.Header) {
				if is(r, http.MethodGet, "/api/agent") {
					h.Del("Retry-After")
				}
			}}
		}, false},
		// Round 3 (docs/detection.md): fresh slips, none in the tables above.
		{"an Idempotency-Key of exactly 128 characters is refused", "FORGE-IDEMPOTENCY-KEY-FORMAT", func() http.Handler { return keysWithin(8, 127) }, true},
		{"a query answer's queriesRemaining stays at the budget", "FORGE-QUERY-BUDGET", remainingStale, false},
		{"the self read nests the apiKey under meta.session", "FORGE-KEY-ONCE", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if is(r, http.MethodGet, "/api/agent") {
					m["meta"] = map[string]any{"session": strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}
				}
			}}
		}, false},
		{"skipped levels are counted as cleared", "FORGE-SKIP-ACCOUNTING", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(_ *http.Request, _ *int, m map[string]any) {
				for _, p := range []any{m, m["progress"]} {
					if p, ok := p.(map[string]any); ok {
						c, cok := p["clearedLevels"].(float64)
						s, sok := p["skippedLevels"].(float64)
						if cok && sok {
							p["clearedLevels"], p["skippedLevels"] = c+s, 0
						}
					}
				}
			}}
		}, true},
		{"a 41-code-point rename is cut to 40 and accepted", "FORGE-NICKNAME-LENGTH", renamesCut, false},
		{"a correct submission's progress keeps the old clearedLevels", "FORGE-SUBMIT-ADVANCES", func() http.Handler { return submitLags("clearedLevels") }, false},
		{"activity rows nest the level's title", "FORGE-ACTIVITY-FORBIDDEN-FIELDS", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				for _, k := range []string{"firstSolves", "recentSolves"} {
					rows, _ := m[k].([]any)
					for _, row := range rows {
						if o, ok := row.(map[string]any); ok {
							o["level"] = map[string]any{"title": "a level"}
						}
					}
				}
			})
		}, false},
		{"the chain length stays at the seed after a publication", "FORGE-APPEND", func() http.Handler {
			return answers(http.MethodGet, "/api/chain", func(_ *int, m map[string]any) {
				if sp, ok := m["seedPositions"].(map[string]any); ok {
					m["length"] = sp["last"]
				}
			})
		}, true},
		{"a successful rename answers the old nickname", "FORGE-NICKNAME-PATCH", renameAnswersOldName, false},
		{"a rate-limited read is 503, not 429", "FORGE-RATE-LIMIT", func() http.Handler { return recodeStatus(429, 503) }, false},
		{"a wrong key is 403, not 401", "FORGE-AUTH-REQUIRED", func() http.Handler { return recodeStatus(401, 403) }, false},
		{"a session's queriesRemaining starts one below the budget", "FORGE-QUERY-BUDGET", func() http.Handler {
			return answers(http.MethodPost, "/api/sessions", func(_ *int, m map[string]any) {
				if n, ok := m["queriesRemaining"].(float64); ok {
					m["queriesRemaining"] = n - 1
				}
			})
		}, false},
		// Round 4 (docs/detection.md): fresh slips, none in the tables above.
		{"mod of a negative multiple is the divisor (-10 mod 5 = 5)", "FORGE-DSL-MOD-NONNEG", dialect(dsl.Dialect{NegMultipleModK: true}), false},
		{"rle writes [count, value] pairs", "FORGE-DSL-RLE-TERMINAL", dialect(dsl.Dialect{CountFirstRLE: true}), false},
		{"chunk_reduce ignores a declared partial policy", "FORGE-DSL-CHUNK-PARTIAL", dialect(dsl.Dialect{IgnoreDeclaredChunk: true}), false},
		{"only a run's result is range-checked, not its intermediate values", "FORGE-DSL-OVERFLOW-REJECTED", dialect(dsl.Dialect{FinalRangeOnly: true}), false},
		{"the nickname limit counts UTF-16 code units", "FORGE-NICKNAME-LENGTH", nicknamesInUTF16, false},
		{"a Bearer key is matched on its first 16 characters", "FORGE-AUTH-REQUIRED", keysByPrefix, false},
		{"a probe permuting a challenge input is refused as that input", "FORGE-QUERY", permutationsRefused, false},
		{"the last level's clear answers atFrontier false", "FORGE-AT-FRONTIER", frontierLate, false},
		{"completedLevels counts the clears alone", "FORGE-SKIP-ACCOUNTING", completedAreCleared, true},
		{"a replay answers the position the next append would take", "FORGE-IDEMPOTENT-REPLAY", replayAtTheTail, true},
		{"a package refused EXAMPLE_MISMATCH stays appended", "FORGE-VALID-EXAMPLES", mismatchesAppended, false},
		{"Retry-After is fractional seconds (\"1.5\")", "FORGE-RATE-LIMIT", func() http.Handler {
			return tamper{h: stoppedRef(), hdr: func(_ *http.Request, h http.Header) {
				if s := h.Get("Retry-After"); s != "" {
					h.Set("Retry-After", s+".5")
				}
			}}
		}, false},
		// Round 5 (docs/detection.md).
		{"deltas are |next - current|", "FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", dialect(dsl.Dialect{AbsDeltas: true}), false},
		{"deltas keep the list's head ([x0, x1-x0, ...])", "FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", dialect(dsl.Dialect{HeadDeltas: true}), false},
		{"sums and products are not range-checked, map's arithmetic is", "FORGE-DSL-OVERFLOW-REJECTED", dialect(dsl.Dialect{UncheckedFolds: true}), false},
		{"hidden inputs outside the input domain are accepted", "FORGE-VALID-BOUNDS", hiddenUnbounded, false},
		{"a session is found by its id alone, whoever's key asks", "FORGE-NO-LEVEL-SELECTION", sessionsByID, false},
		{"a short submission is judged on the outputs it holds", "FORGE-SUBMIT-ADVANCES", prefixJudged, false},
		{"the boards keep an agent's registered nickname after a rename", "FORGE-NICKNAME-PATCH", boardsKeepOldNames, false},
		{"authors with equal accepted levels are ranked by row", "FORGE-AUTHOR-RANK", authorTiesByRow, true},
		{"packages refused by validation count on the authors' board", "FORGE-AUTHOR-RANK", rejectionsCounted, true},
		{"activity rows number stages from 0", "FORGE-ACTIVITY-POSITION-ONLY", activityFromZero, false},
		{"every authenticated answer sets the key as a cookie", "FORGE-KEY-ONCE", keyAsCookie, false},
		{"at the frontier a session opens on the last level again", "FORGE-AT-FRONTIER", frontierReopens, false},
		// Round 6 (docs/detection.md).
		{"a declared drop discards a full last chunk", "FORGE-DSL-CHUNK-PARTIAL", dialect(dsl.Dialect{DropFullLastChunk: true}), false},
		{"rle never writes the run the list ends on", "FORGE-DSL-RLE-TERMINAL", dialect(dsl.Dialect{RLELosesLastRun: true}), false},
		{"only the upper bound of the safe range is checked", "FORGE-DSL-OVERFLOW-REJECTED", dialect(dsl.Dialect{UpperBoundOnly: true}), false},
		{"deltas of fewer than two values fail the run", "FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", dialect(dsl.Dialect{ShortDeltasFail: true}), false},
		{"a 429 on the query route comes without Retry-After", "FORGE-RATE-LIMIT", queryLimitBare, false},
		{"the key is taken under any Authorization scheme, or none", "FORGE-AUTH-REQUIRED", anyScheme, false},
		{"an Idempotency-Key with a space or punctuation is refused", "FORGE-IDEMPOTENCY-KEY-FORMAT", keysWordOnly, true},
		{"a probe is compared with the challenge inputs as JSON text", "FORGE-PROBE-DISTINCT", probesAsText, false},
		{"a taken nickname with spaces round it registers, stored trimmed", "FORGE-NICKNAME-UNIQUE", paddedNamesTrimmed, false},
		{"Idempotency-Keys are scoped to the nickname, so a retry after a rename appends", "FORGE-IDEMPOTENT-REPLAY", keysByNickname, true},
		{"the publication echoes the hidden inputs as tests", "FORGE-PRIVATE-SERVER-ONLY", publicationEchoesHidden, true},
		{"activity rows label the stage with its title", "FORGE-ACTIVITY-FORBIDDEN-FIELDS", activityTitled, false},
		// Round 7 (docs/detection.md).
		{"the exact body {} opening a session is refused 400", "FORGE-SESSION-EMPTY-BODY", sessionBraceRefused, false},
		{"Idempotency-Keys are global, so another agent's equal key replays", "FORGE-IDEMPOTENCY-SCOPE", keysGlobal, true},
		{"DELETE on a level disables it (204)", "FORGE-NO-DISABLE-API", deleteDisables, false},
		{"a submission or query without a key is 404, the session looked up first", "FORGE-AUTH-REQUIRED", submitBeforeAuth, false},
		{"the oracle caches a session's answers by the probe's length", "FORGE-QUERY", oracleCachedByLength, false},
		{"a taken nickname's 409 names the holder with its apiKey", "FORGE-KEY-UNRECOVERABLE", takenEchoesHolder, false},
		{"the progress read tells the current level's difficulty", "FORGE-LEGACY-DIFFICULTY-HIDDEN", progressDifficulty, false},
		{"the author is taken from the package's author field", "FORGE-AUTHOR-BOUND", authorFromPackage, true},
		{"a publication answers the position one past the tail it took", "FORGE-POSITION-TAIL", positionAfterIncrement, true},
		{"the solvers' board is numbered by row, ties apart", "FORGE-RANK-TIES", solversNumbered, false},
		// Round 8 (docs/detection.md): the rows of roundEightSlips (broken_slips_round8_test.go).
		// Round 9 (docs/detection.md): the rows of roundNineSlips (broken_slips_round9_test.go).
	}, append(roundEightSlips(), roundNineSlips()...)...)
}

// nicknamesCut cuts a registration's nickname to 40 code points before
// the reference sees it: a deployment that truncates instead of refusing.
func nicknamesCut() http.Handler { return cutsNames(http.MethodPost, "/api/agents") }

// cutsNames cuts the nickname of method suffix's body to 40 code points
// before the reference sees it.
func cutsNames(method, suffix string) http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		var reg map[string]any
		if !is(r, method, suffix) || json.Unmarshal(body, &reg) != nil {
			return body
		}
		if name, ok := reg["name"].(string); ok && utf8.RuneCountInString(name) > 40 {
			reg["name"] = string([]rune(name)[:40])
			body, _ = json.Marshal(reg)
		}
		return body
	}}
}

// nicknamesInBytes refuses a nickname longer than 40 bytes, as len() in
// place of a code-point count does.
func nicknamesInBytes() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, body []byte) (int, any, bool) {
		var reg struct{ Name string }
		long := is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &reg) == nil && len(reg.Name) > 40
		return 400, map[string]any{"error": map[string]any{"code": "NICKNAME_TOO_LONG", "message": "at most 40 characters"}}, long
	}}
}

// recodes answers one endpoint's refusal coded from with status and code.
func recodes(method, suffix, from string, status int, code string) http.Handler {
	return answers(method, suffix, func(st *int, m map[string]any) {
		if e, ok := m["error"].(map[string]any); ok && e["code"] == from {
			*st, e["code"] = status, code
		}
	})
}

// budgetPlusOne answers the first query past a session's budget as if it
// were within it: a budget compared with > where >= was meant.
func budgetPlusOne() http.Handler {
	var mu sync.Mutex
	over := map[string]bool{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if e, ok := m["error"].(map[string]any); ok && is(r, http.MethodPost, "/query") && e["code"] == "QUERY_BUDGET_EXHAUSTED" && !over[r.URL.Path] {
			over[r.URL.Path] = true
			*st = 200
			delete(m, "error")
			m["output"] = []any{0}
		}
	}}
}

// judgesAgainAfterWrong forgets a session's submission when it was wrong,
// so a second one is judged: "one submission" read as "until correct".
func judgesAgainAfterWrong() http.Handler {
	var mu sync.Mutex
	wrong := map[string]bool{}
	return answers(http.MethodPost, "/submit", func(st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		e, refused := m["error"].(map[string]any)
		switch {
		case m["correct"] == false:
			wrong["any"] = true
		case refused && e["code"] == "ALREADY_SUBMITTED" && wrong["any"]:
			*st = 200
			delete(m, "error")
			m["correct"], m["progress"] = false, map[string]any{"chainProgress": 0, "atFrontier": false}
		}
	})
}

// controlKeysAccepted maps an Idempotency-Key's control characters to
// 'x' before the reference checks it: a validator that only counts length.
func controlKeysAccepted() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if k := r.Header.Get("Idempotency-Key"); is(r, http.MethodPost, "/api/levels") && !refforge.ValidKey(k) && len(k) >= 8 && len(k) <= 128 {
			r.Header.Set("Idempotency-Key", strings.Map(func(c rune) rune {
				if c < 0x20 || c > 0x7e {
					return 'x'
				}
				return c
			}, k))
		}
		return body
	}}
}

// reusedKeyReplays answers a key reused with another body with the
// publication the key first made, instead of 409 IDEMPOTENCY_KEY_REUSED.
func reusedKeyReplays() http.Handler {
	var mu sync.Mutex
	first := map[string]map[string]any{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		if !is(r, http.MethodPost, "/api/levels") {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		k := r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key")
		if e, ok := m["error"].(map[string]any); ok && e["code"] == "IDEMPOTENCY_KEY_REUSED" && first[k] != nil {
			delete(m, "error")
			for f, v := range first[k] {
				m[f] = v
			}
			*st = 200
			return
		}
		if _, ok := first[k]; !ok && *st/100 == 2 {
			first[k] = map[string]any{"publication": m["publication"]}
		}
	}}
}

// rightForSession is judge.right for a query's path.
func (j *judge) rightForSession(r *http.Request) ([]any, bool) {
	q, u := *r, *r.URL
	u.Path = strings.TrimSuffix(u.Path, "/query") + "/submit"
	q.URL = &u
	return j.right(&q)
}

// TestImplementerSlipsAreCaught: each realistic bug of slipCases, planted
// alone and served over loopback, fails its rule in a live run.
func TestImplementerSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, c := range slipCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			hc := harness.Case{Name: c.name, Rule: c.rule, Target: c.target(), Checks: 5}
			if c.authoring {
				hc.Settings = suite.Settings{"allow-authoring": "true"}
			}
			if err := harness.Check(forge.Protocol(), hc); err != nil {
				t.Error(err)
			}
		})
	}
}

// faithfulNeighbour is a legal reading next to a slip: it must fail
// nothing where the slip fails its rule.
type faithfulNeighbour struct {
	name   string
	rules  []string
	target func() http.Handler
}

// faithfulNeighbours take choices the seed leaves open next to the slips
// above: a Retry-After as an HTTP-date, a frontier progress without the
// currentLevel key, a probe's answer that echoes its input and a count,
// a rename answered with more fields and other words.
func faithfulNeighbours() []faithfulNeighbour {
	return append([]faithfulNeighbour{
		{"Retry-After as an HTTP-date", []string{"FORGE-RATE-LIMIT"}, func() http.Handler {
			return tamper{h: stoppedRef(), hdr: func(_ *http.Request, h http.Header) {
				if h.Get("Retry-After") != "" {
					h.Set("Retry-After", time.Now().Add(time.Second).UTC().Format(http.TimeFormat))
				}
			}}
		}},
		{"the frontier progress leaves currentLevel out", []string{"FORGE-AT-FRONTIER", "FORGE-FUTURE-LOCKED"}, func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if p, ok := m["progress"].(map[string]any); ok && p["currentLevel"] == nil {
					delete(p, "currentLevel")
				}
				if is(r, http.MethodGet, "/api/progress") && m["currentLevel"] == nil {
					delete(m, "currentLevel")
				}
			}}
		}},
		{"a probe's answer echoes its input and a count", []string{"FORGE-PRIVATE-SERVER-ONLY", "FORGE-QUERY"}, func() http.Handler {
			return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
				var in struct{ Input any }
				if is(r, http.MethodPost, "/query") && *st == 200 && json.Unmarshal(body, &in) == nil {
					m["input"], m["queriesUsed"] = in.Input, 1
				}
			})
		}},
		{"a rename answered with more fields and other words", []string{"FORGE-NICKNAME-PATCH", "FORGE-PATCH-CONFLICT", "FORGE-NICKNAME-UNIQUE"}, func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if is(r, http.MethodPatch, "/api/agent") || is(r, http.MethodPost, "/api/agents") {
					m["updatedAt"] = "2026-01-01T00:00:00Z"
					otherMessages(m)
					flattenError(m)
				}
			}}
		}},
		// Round 2 (docs/detection.md).
		{"a racing submission's loser answered 423 LOCKED", []string{"FORGE-ONE-SUBMISSION"}, lockedLoser},
		{"solver rows carry a public agentId", []string{"FORGE-KEY-ONCE", "FORGE-RANK-PROGRESS", "FORGE-RANK-TIES"}, func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				for _, row := range m["solvers"].([]any) {
					o := row.(map[string]any)
					o["agentId"] = "agt_" + strconv.Itoa(len(o["name"].(string)))
				}
			})
		}},
		// Round 3 (docs/detection.md).
		{"a rename to one's own nickname is 409 NICKNAME_TAKEN", []string{"FORGE-NICKNAME-PATCH", "FORGE-PATCH-CONFLICT"}, ownNameTaken},
		{"query answers state queriesRemaining alone", []string{"FORGE-QUERY-BUDGET", "FORGE-QUERY"}, func() http.Handler {
			return answers(http.MethodPost, "/query", func(_ *int, m map[string]any) { delete(m, "queriesUsed") })
		}},
		{"a renamed agent's old nickname stays reserved", []string{"FORGE-NICKNAME-UNIQUE", "FORGE-NICKNAME-PATCH", "FORGE-PATCH-CONFLICT", "FORGE-REGISTER"}, oldNamesReserved},
		// Round 4 (docs/detection.md).
		{"a correct submission's progress states chainProgress and currentLevel alone", []string{"FORGE-AT-FRONTIER", "FORGE-SUBMIT-ADVANCES", "FORGE-FUTURE-LOCKED"}, progressTerse},
		// Round 5 (docs/detection.md).
		{"a 429 from a proxy with a plain-text body", []string{"FORGE-RATE-LIMIT"}, plainTooMany},
		{"authenticated answers set an opaque session cookie", []string{"FORGE-KEY-ONCE", "FORGE-KEY-UNRECOVERABLE", "FORGE-PATCH-NO-KEY"}, opaqueCookie},
		{"another agent's session refused 403 FORBIDDEN", []string{"FORGE-NO-LEVEL-SELECTION"}, othersSessionForbidden},
		{"a short submission judged wrong, not refused", []string{"FORGE-SUBMIT-ADVANCES", "FORGE-ORIGINAL-ORDER", "FORGE-SUBMIT-UNLOCKS"}, shortJudgedWrong},
		// Round 6 (docs/detection.md).
		{"a nickname with spaces round it refused 400 NICKNAME_INVALID", []string{"FORGE-NICKNAME-UNIQUE", "FORGE-REGISTER"}, paddedNamesRefused},
		// Round 7 (docs/detection.md).
		{"an empty nickname registers under a generated name", []string{"FORGE-NICKNAME-LENGTH", "FORGE-REGISTER", "FORGE-NICKNAME-UNIQUE"}, emptyNameGenerated},
		{"a spent query budget answered 429 with Retry-After", []string{"FORGE-QUERY-BUDGET", "FORGE-QUERY"}, budgetAsRateLimit},
		// Round 9 (docs/detection.md): the rows of roundNineNeighbours (broken_slips_round9_test.go).
	}, roundNineNeighbours()...)
}

// authoringNeighbours are faithfulNeighbours that need --allow-authoring:
// the progress without completedLevels once a skip is counted, a replay
// answered like the first publication, a validation told in numbers and a
// chain summary with a clock.
func authoringNeighbours() []faithfulNeighbour {
	return append([]faithfulNeighbour{
		// Round 4 (docs/detection.md).
		{"progress leaves completedLevels out", []string{"FORGE-SKIP-ACCOUNTING", "FORGE-SELF-AUTHORED-SKIP", "FORGE-RANK-NO-SKIP-CREDIT"}, withoutCompleted},
		{"a replay answered 201 like the first, without idempotentReplay", []string{"FORGE-IDEMPOTENT-REPLAY", "FORGE-APPEND", "FORGE-AUTHOR-RANK"}, replayLikeTheFirst},
		// Round 5 (docs/detection.md).
		{"a deployment with an earlier author, tied with the runner's", []string{"FORGE-AUTHOR-RANK", "FORGE-SELF-AUTHORED-SKIP", "FORGE-SKIP-ACCOUNTING"}, func() http.Handler {
			return withEarlierAuthor(ref(dsl.Dialect{}))
		}},
		// Round 6 (docs/detection.md).
		{"a replay after a rename names the author's new nickname", []string{"FORGE-IDEMPOTENT-REPLAY", "FORGE-AUTHOR-BOUND", "FORGE-APPEND", "FORGE-IDEMPOTENCY-KEY-FORMAT"}, replayNamesCurrentAuthor},
		// Round 8 (docs/detection.md): the rows of roundEightNeighbours (broken_slips_round8_test.go).
		// Round 9 (docs/detection.md): the rows of roundNineAuthoringNeighbours (broken_slips_round9_test.go).
	}, append(roundEightNeighbours(), roundNineAuthoringNeighbours()...)...)
}

// TestFaithfulNeighboursOfTheSlipsPass: each legal reading of
// faithfulNeighbours, run on its rules alone, fails and errs nothing and
// decides at least one check.
func TestFaithfulNeighboursOfTheSlipsPass(t *testing.T) {
	t.Parallel()
	for authoring, table := range [][]faithfulNeighbour{faithfulNeighbours(), authoringNeighbours()} {
		for _, v := range table {
			t.Run(v.name, func(t *testing.T) {
				t.Parallel()
				srv := httptest.NewServer(v.target())
				defer srv.Close()
				cfg := suite.Config{Protocols: []*suite.Protocol{forge.Protocol()}, Rules: v.rules,
					Target: srv.URL, Seed: 11, NoProperties: true}
				if authoring == 1 {
					cfg.Settings = suite.Settings{"allow-authoring": "true"}
				}
				harness.Faithful(t, cfg, 1)
			})
		}
	}
}
