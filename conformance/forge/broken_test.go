package forge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/spec"
)

// brokenCase is a broken reference the live runner must fail, naming rule.
type brokenCase struct {
	rule      string
	target    func() http.Handler
	authoring bool // needs --allow-authoring
}

func dialect(d dsl.Dialect) func() http.Handler { return func() http.Handler { return ref(d) } }

func brokenCases() []brokenCase {
	return append([]brokenCase{
		{"FORGE-DSL-MOD-NONNEG", dialect(dsl.Dialect{TruncatedMod: true}), false},
		{"FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", dialect(dsl.Dialect{CurrentMinusNext: true}), false},
		{"FORGE-DSL-RLE-TERMINAL", dialect(dsl.Dialect{AllowNonTerminalRLE: true}), false},
		{"FORGE-DSL-OVERFLOW-REJECTED", dialect(dsl.Dialect{WrapOverflow: true}), false},
		{"FORGE-DSL-CHUNK-PARTIAL", dialect(dsl.Dialect{DropPartialChunks: true}), false},
		{"FORGE-IDEMPOTENT-REPLAY", retryAppends, true},
		{"FORGE-IDEMPOTENCY-SCOPE", globalKeys, true},
		{"FORGE-LEGACY-DIFFICULTY-REMOVED", keysWithDifficulty, true},
		{"FORGE-IDEMPOTENCY-KEY-FORMAT", lenientKeys, true},
		{"FORGE-FUTURE-LOCKED", exposesNext, false},
		{"FORGE-ACTIVITY-FORBIDDEN-FIELDS", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				for _, l := range m["levels"].([]any) {
					l.(map[string]any)["levelId"] = "seed-01-shift"
				}
			})
		}, false},
		{"FORGE-ACTIVITY-POSITION-ONLY", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				for _, l := range m["levels"].([]any) {
					delete(l.(map[string]any), "position")
				}
			})
		}, false},
		{"FORGE-KEY-ONCE", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
				if is(r, http.MethodGet, "/api/agent") {
					m["apiKey"] = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				}
			}}
		}, false},
		{"FORGE-PATCH-NO-KEY", func() http.Handler {
			return answers(http.MethodPatch, "/api/agent", func(_ *int, m map[string]any) { m["apiKey"] = "forge_reissued" })
		}, false},
		{"FORGE-SELF", func() http.Handler {
			return answers(http.MethodGet, "/api/agent", func(_ *int, m map[string]any) { m["name"] = "somebody-else" })
		}, false},
		{"FORGE-REGISTER", func() http.Handler {
			return answers(http.MethodPost, "/api/agents", func(st *int, m map[string]any) { *st = 400 })
		}, false},
		{"FORGE-NICKNAME-UNIQUE", func() http.Handler {
			n := 0
			return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
				if is(r, http.MethodPost, "/api/agents") {
					n++
					return []byte(strings.Replace(string(body), `"}`, "-"+strings.Repeat("z", n%7)+`"}`, 1))
				}
				return body
			}}
		}, false},
		{"FORGE-NICKNAME-LENGTH", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
				if is(r, http.MethodPost, "/api/agents") {
					return []byte(strings.Replace(string(body), "é\"}", "\"}", 1))
				}
				return body
			}}
		}, false},
		{"FORGE-PATCH-CONFLICT", func() http.Handler {
			return answers(http.MethodPatch, "/api/agent", func(st *int, m map[string]any) {
				if *st == 409 {
					*st = 200
				}
			})
		}, false},
		{"FORGE-NICKNAME-PATCH", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
				return 200, map[string]any{"agentId": "x", "name": "x"}, is(r, http.MethodPatch, "/api/agent")
			}}
		}, false},
		{"FORGE-AUTH-REQUIRED", stealsAuth, false},
		{"FORGE-DOC-SCHEMA", func() http.Handler { return missing("/spec/puzzle.schema.json") }, false},
		{"FORGE-DOC-DSL", func() http.Handler { return missing("/spec/dsl.md") }, false},
		{"FORGE-DOC-QUICKSTART", func() http.Handler { return missing("/docs/agent-quickstart") }, false},
		{"FORGE-DOC-OPENAPI", func() http.Handler { return missing("/openapi.json") }, false},
		{"FORGE-LEADERBOARDS", func() http.Handler { return missing("/api/leaderboards") }, false},
		{"FORGE-CHAIN-SUMMARY", func() http.Handler {
			return answers(http.MethodGet, "/api/chain", func(_ *int, m map[string]any) {
				m["levels"] = []any{map[string]any{"position": 1, "title": "Shift"}}
			})
		}, false},
		{"FORGE-CHAIN-SEED-POSITIONS", func() http.Handler {
			return answers(http.MethodGet, "/api/chain", func(_ *int, m map[string]any) { m["length"] = 5 })
		}, false},
		{"FORGE-CHAIN-FIRST-POSITION", func() http.Handler {
			return answers(http.MethodGet, "/api/chain", func(_ *int, m map[string]any) { m["firstPosition"] = 0 })
		}, false},
		{"FORGE-NO-DISABLE-API", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
				return 200, map[string]any{"enabled": false}, is(r, http.MethodPatch, "/api/levels/1")
			}}
		}, false},
		{"FORGE-PROGRESS", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if l, ok := m["currentLevel"].(map[string]any); ok {
					l["position"] = l["position"].(float64) + 1
				}
			})
		}, false},
		{"FORGE-SESSION-CURRENT", func() http.Handler {
			return answers(http.MethodPost, "/api/sessions", func(_ *int, m map[string]any) {
				if p, ok := m["position"].(float64); ok {
					m["position"] = p + 3
				}
			})
		}, false},
		{"FORGE-PRIVATE-SERVER-ONLY", func() http.Handler {
			return answers(http.MethodPost, "/api/sessions", func(_ *int, m map[string]any) { m["expectedOutputs"] = []any{} })
		}, false},
		{"FORGE-LEGACY-DIFFICULTY-HIDDEN", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if l, ok := m["currentLevel"].(map[string]any); ok {
					l["difficulty"] = 2
				}
			})
		}, false},
		{"FORGE-SESSION-EMPTY-BODY", honoursLevelID, false},
		{"FORGE-PROBE-DISTINCT", func() http.Handler {
			return answers(http.MethodPost, "/query", func(st *int, m map[string]any) {
				if e, ok := m["error"].(map[string]any); ok && e["code"] == "CHALLENGE_INPUT_QUERY" {
					*st = 200
					delete(m, "error")
					m["output"] = 0
				}
			})
		}, false},
		{"FORGE-QUERY", func() http.Handler {
			return answers(http.MethodPost, "/query", func(st *int, m map[string]any) {
				if *st == 200 {
					*st = 422
				}
			})
		}, false},
		{"FORGE-QUERY-BUDGET", func() http.Handler {
			return answers(http.MethodPost, "/query", func(st *int, m map[string]any) {
				if e, ok := m["error"].(map[string]any); ok && e["code"] == "QUERY_BUDGET_EXHAUSTED" {
					*st = 200
					delete(m, "error")
					m["output"] = 0
				}
			})
		}, false},
		{"FORGE-RATE-LIMIT", func() http.Handler {
			return tamper{h: stoppedRef(), hdr: func(_ *http.Request, h http.Header) { h.Del("Retry-After") }}
		}, false},
		{"FORGE-ONE-SUBMISSION", func() http.Handler {
			return answers(http.MethodPost, "/submit", func(st *int, m map[string]any) {
				if e, ok := m["error"].(map[string]any); ok && e["code"] == "ALREADY_SUBMITTED" {
					*st = 200
					delete(m, "error")
					m["correct"], m["progress"] = false, map[string]any{"chainProgress": 0, "atFrontier": false}
				}
			})
		}, false},
		{"FORGE-SUBMIT-ADVANCES", wrongAdvances, false},
		{"FORGE-ORIGINAL-ORDER", multiset, false},
		{"FORGE-SUBMIT-UNLOCKS", func() http.Handler {
			return answers(http.MethodPost, "/api/sessions", func(_ *int, m map[string]any) {
				if p, ok := m["position"].(float64); ok && p > 1 {
					m["position"] = p - 1 // the session claims the level before
				}
			})
		}, false},
		{"FORGE-AT-FRONTIER", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) { m["atFrontier"] = false })
		}, false},
		{"FORGE-RANK-PROGRESS", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				s := m["solvers"].([]any)
				for i, row := range s {
					row.(map[string]any)["rank"] = len(s) - i
				}
			})
		}, false},
		{"FORGE-RANK-QUERY-EFFICIENCY", ranksByQueries, false},
		{"FORGE-RANK-TIES", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				for i, row := range m["solvers"].([]any) {
					row.(map[string]any)["rank"] = i + 1
				}
			})
		}, false},
		{"FORGE-AUTHOR-RANK", func() http.Handler {
			return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
				for _, row := range m["authors"].([]any) {
					row.(map[string]any)["acceptedLevels"] = row.(map[string]any)["acceptedLevels"].(float64) + 1
				}
			})
		}, true},
		{"FORGE-APPEND", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
				return 201, map[string]any{"publication": map[string]any{"levelId": "x", "position": 11}}, is(r, http.MethodPost, "/api/levels")
			}}
		}, true},
		{"FORGE-POSITION-TAIL", func() http.Handler {
			return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
				if p, ok := m["publication"].(map[string]any); ok {
					p["position"] = p["position"].(float64) + 5
				}
			})
		}, true},
		{"FORGE-AUTHOR-BOUND", func() http.Handler {
			return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
				if p, ok := m["publication"].(map[string]any); ok {
					p["author"] = "the-platform"
				}
			})
		}, true},
		{"FORGE-IDEMPOTENCY-REUSED", func() http.Handler {
			return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
				if e, ok := m["error"].(map[string]any); ok && e["code"] == "IDEMPOTENCY_KEY_REUSED" {
					*st = 422
				}
			})
		}, true},
		{"FORGE-NO-DUPLICATE-NEW-ID", func() http.Handler { return acceptsCode("DUPLICATE_CONTENT") }, true},
		{"FORGE-VALID-DUPLICATE", appendsRejectedDuplicates, true},
		{"FORGE-AUTHOR-ELIGIBILITY", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
				return 403, map[string]any{"error": map[string]any{"code": "NOT_ELIGIBLE", "message": "solve a level first"}}, is(r, http.MethodPost, "/api/levels")
			}}
		}, true},
		{"FORGE-ID-NOT-OVERWRITTEN", func() http.Handler { return acceptsCode("DUPLICATE_ID") }, true},
		{"FORGE-VALID-SCHEMA", func() http.Handler { return acceptsCode("SCHEMA_INVALID") }, false},
		{"FORGE-VALID-TYPES", func() http.Handler { return acceptsCode("DSL_TYPE_ERROR") }, false},
		{"FORGE-VALID-BOUNDS", func() http.Handler { return acceptsCode("BOUNDS_EXCEEDED") }, false},
		{"FORGE-VALID-200X3", func() http.Handler { return acceptsCode("VALIDATION_RUN_FAILED") }, false},
		{"FORGE-VALID-BUDGET", func() http.Handler { return acceptsCode("EXECUTION_BUDGET_EXCEEDED") }, false},
		{"FORGE-VALID-EXAMPLES", func() http.Handler { return acceptsCode("EXAMPLE_MISMATCH") }, false},
		{"FORGE-SELF-AUTHORED-SKIP", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) { m["skippedLevels"] = 0 })
		}, true},
		{"FORGE-SKIP-ACCOUNTING", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if s, ok := m["skippedLevels"].(float64); ok && s > 0 {
					m["skippedLevels"] = s + 1
				}
			})
		}, true},
		{"FORGE-RANK-NO-SKIP-CREDIT", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if s, ok := m["skippedLevels"].(float64); ok && s > 0 {
					m["clearedLevels"] = m["chainProgress"]
				}
			})
		}, true},
	}, append(boundaryCases(), auditCases()...)...)
}

// untampered are the live-checkable MUST rules without a broken target
// here, each with the reason; the coverage test keeps this list honest.
// It is empty: the rules a neighbouring rule used to catch first each have
// a broken target of their own (broken_boundary_test.go).
var untampered = map[string]string{}

// TestBrokenTargetsFailNamingTheRule: each broken reference is caught
// through `run --target` over loopback (the kit's tamper harness), as a
// fail naming its rule; the authoring cases run with --allow-authoring.
// The cases run in parallel: they mostly wait out the reference's
// Retry-After.
func TestBrokenTargetsFailNamingTheRule(t *testing.T) {
	t.Parallel()
	for _, c := range brokenCases() {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			hc := harness.Case{Name: c.rule, Rule: c.rule, Target: c.target(), Checks: 5}
			if c.authoring {
				hc.Settings = suite.Settings{"allow-authoring": "true"}
			}
			if err := harness.Check(forge.Protocol(), hc); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestBrokenEmbeddedReferencesFail covers the @control rules, which need
// the embedded reference's clock or its Go-only disable switch.
func TestBrokenEmbeddedReferencesFail(t *testing.T) {
	t.Parallel()
	for _, c := range controlCases() {
		t.Run(c.Rule, func(t *testing.T) {
			if err := harness.Check(forge.Protocol(), c); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestTheReferenceItselfPassesLive: the same live runs against the
// unbroken reference pass, so every fail above is the tampering's.
func TestTheReferenceItselfPassesLive(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(ref(dsl.Dialect{}))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{forge.Protocol()},
		Target: srv.URL + "/forge", Seed: 11, Checks: 5, Settings: suite.Settings{"allow-authoring": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 {
		for _, r := range rep.Results {
			if r.Status != verdict.Pass && r.Status != verdict.Skip {
				t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
			}
		}
	}
}

// TestEveryLiveMustRuleHasATamperTest lists the MUST rules with neither a
// broken target nor a recorded reason, and stale reasons.
func TestEveryLiveMustRuleHasATamperTest(t *testing.T) {
	t.Parallel()
	cat, err := spec.Load("forge")
	if err != nil {
		t.Fatal(err)
	}
	tampered := map[string]bool{}
	for _, c := range brokenCases() {
		tampered[c.rule] = true
	}
	for _, c := range controlCases() {
		tampered[c.Rule] = true
	}
	for _, gap := range harness.Uncovered(cat, tampered, untampered) {
		t.Error(gap)
	}
	harness.Record(t, "forge", tampered, untampered)
	t.Logf("%d MUST rules tampered, %d without a broken target", len(tampered), len(untampered))
}
