package phantompress

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// slip and neighbour are the shared harness's rows (conformance/tamper),
// declared here so the tables stay unkeyed literals.
type (
	slip      harness.Slip
	neighbour harness.Neighbour
)

// slipCases are bugs an implementer of the seed would plausibly write,
// none of them in the older tables (docs/detection.md keeps their tally):
// a budget bound off by one or read from a string, an ID of its own
// length, a score or a cost of its own, another status for a documented
// refusal, a stale answer after a write, a count one past its N, hidden
// values under innocent keys or on another surface.
func slipCases() []slip {
	return append([]slip{
		{"budget_turns 0 taken for 1", "PP-RUN-BUDGET-REQUIRED", func() http.Handler {
			return bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
				if m["budget_turns"] == float64(0) {
					m["budget_turns"] = 1
				}
			})
		}},
		{"budget_turns \"80\" parsed as a number", "PP-RUN-BUDGET-REQUIRED", func() http.Handler {
			return bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
				if s, ok := m["budget_turns"].(string); ok {
					if n, err := strconv.Atoi(s); err == nil {
						m["budget_turns"] = n
					}
				}
			})
		}},
		{"run_id with 16 hex digits", "PP-RUN-CREATE", func() http.Handler {
			return harness.Respell(ppRef(), harness.Respelling{
				Path: func(p string) string { return longRunIDs.ReplaceAllString(p, "run_$1") },
				Body: func(b []byte) []byte {
					return shortRunIDs.ReplaceAllFunc(b, func(id []byte) []byte { return append(id, "0000"...) })
				},
			})
		}},
		{"the score leaves out the turns", "PP-SCORE", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) {
					if s, ok := st["score"].(float64); ok {
						st["score"] = s + num(st["turn"])
					}
				})
			})
		}},
		{"an interview costs 2 AP, as a read does", "PP-AP-COST", func() http.Handler { return apOffsetAfter("interview", 1) }},
		{"read offered with 1 AP left", "PP-AVAILABLE-ACTIONS", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				st, _ := m["state"].(map[string]any)
				if acts, ok := m["available_actions"].([]any); ok && st != nil && st["status"] == "active" && num(st["ap"]) == 1 && !containsString(acts, "read") {
					m["available_actions"] = append(acts, "read")
				}
			})
		}},
		{"another agent's run answered 404", "PP-ERR-403", func() http.Handler {
			return harness.Responses(ppRef(), harness.Recode("forbidden", http.StatusNotFound, "run_not_found"))
		}},
		{"a hidden run answered 403", "PP-RUN-HIDDEN-404", hiddenRunsForbidden},
		{"a finished run answered 410 Gone", "PP-ERR-409-FINISHED", func() http.Handler {
			return harness.Responses(ppRef(), harness.Recode("run_finished", http.StatusGone, "run_finished"))
		}},
		{"an unknown key answered 403", "PP-ERR-401", func() http.Handler {
			return harness.Responses(ppRef(), harness.Recode("unauthorized", http.StatusForbidden, "forbidden"))
		}},
		{"an action answers the turn read before it", "PP-ACTION-RESPONSE", func() http.Handler {
			return breaker(func(in, b map[string]any, _ func(string, string) map[string]any) {
				if b["ok"] == true && num(b["turn"]) > 0 && in["action"] != "status" && in["action"] != "comment" {
					b["turn"] = num(b["turn"]) - 1
				}
			})
		}},
		{"an extension logged but not applied to the run", "PP-RUN-EXTEND-LOGGED", extensionsNotApplied},
		{"?recent=N lists N+1 runs", "PP-RECENT", func() http.Handler {
			return harness.Requests(ppRef(), func(r *http.Request, body []byte) []byte {
				if n, err := strconv.Atoi(r.URL.Query().Get("recent")); err == nil {
					q := r.URL.Query()
					q.Set("recent", strconv.Itoa(n+1))
					r.URL.RawQuery = q.Encode()
				}
				return body
			})
		}},
		{"a witness's type shown as its role before publish", "PP-HIDE-BEFORE-PUBLISH", func() http.Handler {
			return leaking(func(rv, body map[string]any) {
				types := map[string]any{}
				for _, w := range asList(rv["witnesses"]) {
					wm, _ := w.(map[string]any)
					types[str(wm["witness"])] = wm["type"]
				}
				st := body["state"].(map[string]any)
				for _, w := range asList(st["case"].(map[string]any)["witnesses"]) {
					wm, _ := w.(map[string]any)
					wm["role"] = types[str(wm["id"])]
				}
			})
		}},
		{"the correct verdicts in the public log before publish", "PP-HIDE-BEFORE-PUBLISH", logLeaksVerdicts},
	},
		// Round 2 (docs/detection.md): fresh slips, none in the tables
		// above; their targets are in broken_slips_round2_test.go.
		append(roundTwoSlips(),
			// Round 3 (docs/detection.md): fresh again; their targets
			// are in broken_slips_round3_test.go.
			append(roundThreeSlips(),
				// Round 4: fresh again; their targets are in
				// broken_slips_round4_test.go.
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

// extensionsNotApplied logs every extension (the reference does) but
// keeps refusing a run's actions once its turns reach the budget it was
// created with: the log written, the run's own budget never updated.
func extensionsNotApplied() http.Handler {
	var mu sync.Mutex
	budget := map[string]float64{}
	return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		id, state := runOf(m)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs") && state != nil {
			budget[id] = num(state["budget_turns"])
		}
		if isAction(r) && m["ok"] == true && state != nil && budget[id] > 0 && num(state["turn"]) > budget[id] {
			*st = http.StatusConflict
			replaceWith(m, map[string]any{"code": "budget_exhausted", "error": "the turn budget is spent; extend it to go on"})
		}
	})
}

// hiddenRunsForbidden answers a hidden run's log 403, as an access check
// placed before the look-up does; a run never created stays 404.
func hiddenRunsForbidden() http.Handler {
	var mu sync.Mutex
	made := map[string]bool{}
	return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if id, ok := m["run_id"].(string); ok && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs") {
			made[id] = true
		}
		if r.Method == http.MethodGet && *st == http.StatusNotFound && made[runOfPath(r.URL.Path)] {
			*st = http.StatusForbidden
			replaceWith(m, map[string]any{"code": "forbidden", "error": "this run is hidden"})
		}
	})
}

// logLeaksVerdicts adds each question's correct verdict to the public
// log's state while its case is open: a log serialised from the engine's
// case instead of its public view.
func logLeaksVerdicts() http.Handler {
	ref := ppRef()
	return harness.Responses(ref, func(r *http.Request, _ *int, m map[string]any) {
		id := runOfPath(r.URL.Path)
		if r.Method != http.MethodGet || id == "" || m["status"] != "active" {
			return
		}
		rv, ok := ref.RevealOf(id)
		if !ok {
			return
		}
		eachState(m, func(st map[string]any) {
			c, _ := st["case"].(map[string]any)
			for _, q := range asList(c["questions"]) {
				qm, _ := q.(map[string]any)
				qm["expected"] = string(rv.Answers[str(qm["id"])])
			}
		})
	})
}

// TestImplementerSlipsAreCaught: each realistic bug of slipCases, planted
// alone and served over loopback, fails its rule in a live run.
func TestImplementerSlipsAreCaught(t *testing.T) {
	t.Parallel()
	harness.Slips(t, Protocol, slipCases(), nil)
}

// TestASpentBudgetAnswered429IsNeverAPass keeps the one slip a live run
// cannot pin on its rule: a spent budget answered 429 instead of 409. The
// seed's 429 also stands for a short-term rate limit whose body it leaves
// open, and the kit never retries a write, so the run cannot tell the
// slip from a rate limit; it ends in a harness error naming the 429
// (exit 2), never a pass.
func TestASpentBudgetAnswered429IsNeverAPass(t *testing.T) {
	t.Parallel()
	out, err := harness.Run(Protocol, harness.Case{Name: "429 budget", Rule: "PP-RUN-BUDGET-SPENT",
		Target: harness.Responses(ppRef(), harness.Recode("budget_exhausted", http.StatusTooManyRequests, "budget_exhausted"))})
	if err != nil {
		t.Fatal(err)
	}
	if out.Report.ExitCode() != 2 || !strings.Contains(out.Summary(), "429") {
		t.Errorf("exit %d; want 2 with the 429 named\n%s", out.Report.ExitCode(), out.Summary())
	}
}

// faithfulNeighbours take choices the seed leaves open next to the slips
// above: run IDs in upper-case hex ("run_<12hex>" names no case), a run
// created 201, an extension answered without its budget (the seed gives
// extend no answer shape; the log records it), and refusals with a
// detail and other words.
func faithfulNeighbours() []neighbour {
	return append([]neighbour{
		{"run IDs in upper-case hex", []string{"PP-RUN-CREATE", "PP-RUN-HIDDEN-404", "PP-ERR-404"}, func() http.Handler {
			return harness.Respell(ppRef(), harness.Respelling{
				Path: func(p string) string { return upperRunIDs.ReplaceAllStringFunc(p, strings.ToLower) },
				Body: func(b []byte) []byte {
					return shortRunIDs.ReplaceAllFunc(b, func(id []byte) []byte { return []byte("run_" + strings.ToUpper(string(id[4:]))) })
				},
			})
		}},
		{"a run created 201", []string{"PP-RUN-CREATE", "PP-RUN-BUDGET-REQUIRED"}, func() http.Handler {
			return harness.Respell(ppRef(), harness.Respelling{Status: func(r *http.Request, st int) int {
				if st == http.StatusOK && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs") {
					return http.StatusCreated
				}
				return st
			}})
		}},
		{"an extension answered {ok: true} alone", []string{"PP-RUN-EXTEND-LOGGED", "PP-RUN-TURN-LIMIT"}, func() http.Handler {
			return answersTo(http.MethodPost, "/extend", func(_ *http.Request, _ *int, m map[string]any) {
				replaceWith(m, map[string]any{"ok": true})
			})
		}},
		{"refusals with a detail and other words", []string{"PP-ERR-401", "PP-ERR-403", "PP-ERR-409-FINISHED", "PP-RUN-BUDGET-SPENT"}, func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, st *int, m map[string]any) {
				if *st >= 400 {
					m["error"], m["detail"] = "request refused", map[string]any{"see": "/api"}
				}
			})
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

// TestFaithfulNeighboursOfTheSlipsPass: each legal reading of
// faithfulNeighbours, run on its rules alone, fails and errs nothing and
// decides at least one check.
func TestFaithfulNeighboursOfTheSlipsPass(t *testing.T) {
	t.Parallel()
	harness.Neighbours(t, Protocol, faithfulNeighbours(), nil)
}

// Run IDs as the reference writes them, with four more digits, and in
// upper case.
var (
	shortRunIDs = regexp.MustCompile(`run_[0-9a-f]{12}`)
	longRunIDs  = regexp.MustCompile(`run_([0-9a-f]{12})0000`)
	upperRunIDs = regexp.MustCompile(`run_[0-9A-F]{12}`)
)
