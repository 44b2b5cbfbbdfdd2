package phantompress

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The targets of the fourth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundFourSlips are the fourth round's fresh slips: a write route of
// another agent's run, an owner check before the look-up, a fractional
// budget floored, the last budgeted turn refused, the interview grammar
// and the sources read as the other one's, an alias of its own, a
// rejection that erases, a case table row off, a hedge scored as an
// assertion, the oldest runs listed as the recent ones.
func roundFourSlips() []slip {
	return []slip{
		{"another agent can extend a run", "PP-ERR-403", ownerCheckSkipped("/extend")},
		{"an action on a run that does not exist answered 403", "PP-ERR-404", func() http.Handler {
			return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
				if r.Method == http.MethodPost && *st == http.StatusNotFound {
					*st = http.StatusForbidden
					replaceWith(m, map[string]any{"code": "forbidden", "error": "this run is not yours"})
				}
			})
		}},
		{"budget_turns 80.5 floored to 80", "PP-RUN-BUDGET-REQUIRED", func() http.Handler {
			return bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
				if f, ok := m["budget_turns"].(float64); ok && f != math.Trunc(f) {
					m["budget_turns"] = math.Floor(f)
				}
			})
		}},
		{"the last turn of the budget refused", "PP-RUN-BUDGET-SPENT", lastTurnRefused},
		{"an interview in the space form refused", "PP-INTERVIEW-GRAMMAR", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				arg := str(in["arg"])
				return in["action"] == engine.ActInterview && !strings.Contains(arg, ":") && len(strings.Fields(arg)) == 2
			}, "bad_arg", "取材は 証人ID:トピックID の形式で指定してください")
		}},
		{"an interview cited as a source refused", "PP-ANSWER-ASSERT-SOURCES", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				f := engine.Fields(str(in["arg"]))
				return in["action"] == engine.ActAnswer && len(f) > 3 && slices.ContainsFunc(f[3:], func(s string) bool { return strings.Contains(s, ":") })
			}, "unknown_source", "出典は資料IDで指定してください")
		}},
		{"the alias unverifiable refused", "PP-ANSWER-ALIASES", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				f := engine.Fields(str(in["arg"]))
				return in["action"] == engine.ActAnswer && len(f) > 1 && strings.EqualFold(f[1], "unverifiable")
			}, "bad_verdict", "評決は 真 / 偽 / 裏取り不能 / true / false のいずれかです")
		}},
		{"a rejected assertion erases the earlier answer", "PP-ANSWER-REJECT", rejectionErases},
		{"case 4 granted 14 AP", "PP-CASE-TABLE", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) {
					if num(st["case_no"]) == 4 {
						st["ap"] = max(num(st["ap"])-2, 0)
					}
				})
			})
		}},
		{"a correct hedge scores 40", "PP-SETTLE-TABLE", hedgeScoredAsAssert},
		{"?recent=N lists the N oldest runs", "PP-RECENT", oldestRuns},
	}
}

// roundFourNeighbours are the fourth round's faithful readings: a state
// that lists no recorded answers or rejections (the seed's client reads
// neither), a visibility call that toggles whatever its
// body says (the seed gives the route no body: "Hide run (reversible)")
// and recent runs counted from their last action, not their start (the
// seed's "直近 run 一覧" says neither).
func roundFourNeighbours() []neighbour {
	return []neighbour{
		{"a state listing no answers or rejections", []string{"PP-ANSWER-REJECT", "PP-PUBLISH-ALL-ANSWERED"}, func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) { delete(st, "answers"); delete(st, "rejections") })
			})
		}},
		{"visibility toggled by each call", []string{"PP-RUN-VISIBILITY", "PP-RUN-HIDDEN-404"}, visibilityToggles},
		{"?recent=N ranked by last action", []string{"PP-RECENT"}, recentByLastAction},
	}
}

// turnSpending are the actions that spend a turn (PP-ACTION-TURN).
var turnSpending = map[string]bool{engine.ActLook: true, engine.ActRead: true, engine.ActInterview: true, engine.ActAnswer: true, engine.ActPublish: true}

// lastTurnRefused refuses a turn-spending action 409 once it would bring
// the turns to the budget (turn+1 >= budget): a spent-budget test run
// before the turn is counted instead of after.
func lastTurnRefused() http.Handler {
	ref := ppRef()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := readAll(r)
		restore(r, raw)
		if isAction(r) && turnSpending[actionOf(raw)] {
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/action"), nil))
			var lg struct {
				State struct {
					Turn   float64 `json:"turn"`
					Budget float64 `json:"budget_turns"`
				} `json:"state"`
			}
			if rec.Code == http.StatusOK && json.Unmarshal(rec.Body.Bytes(), &lg) == nil && lg.State.Budget > 0 && lg.State.Turn+1 >= lg.State.Budget {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusConflict)
				w.Write([]byte(`{"code":"budget_exhausted","error":"the turn budget is spent; extend it to go on"}`))
				return
			}
		}
		ref.ServeHTTP(w, r)
	})
}

// rejectionErases drops a question's recorded answer when an assertion on
// it is rejected (a handler that clears the slot before judging): the
// state no longer shows it, and publish refuses the case as unanswered.
func rejectionErases() http.Handler {
	var mu sync.Mutex
	erased := map[string]map[string]bool{}
	return breaker(func(in, b map[string]any, _ func(string, string) map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		id := runOfState(b)
		f := engine.Fields(str(in["arg"]))
		if in["action"] == engine.ActAnswer && len(f) > 0 {
			if erased[id] == nil {
				erased[id] = map[string]bool{}
			}
			erased[id][f[0]] = b["code"] == "rejected"
		}
		if in["action"] == engine.ActPublish && b["ok"] == true {
			for q, gone := range erased[id] {
				if gone {
					replaceWith(b, map[string]any{"ok": false, "code": "unanswered", "error": "設問 " + q + " が未回答です",
						"narrative": "デスク：「設問 " + q + " が未回答だ」", "turn": b["turn"], "state": b["state"], "events": []any{},
						"available_actions": b["available_actions"]})
					return
				}
			}
			erased[id] = nil
		}
		if st, ok := b["state"].(map[string]any); ok {
			answers, _ := st["answers"].(map[string]any)
			for q, gone := range erased[id] {
				if gone {
					delete(answers, q)
				}
			}
		}
	})
}

// hedgeScoredAsAssert settles a correct hedge at +40, an assertion's
// figure, the settlement's totals and every later state agreeing.
func hedgeScoredAsAssert() http.Handler {
	v := newRunView()
	return breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		eachSettlement(b, func(s map[string]any) {
			for _, l := range asList(s["lines"]) {
				if lm, _ := l.(map[string]any); lm != nil && lm["right"] == true && lm["confidence"] == string(engine.Hedge) {
					lm["points"] = num(lm["points"]) + 25
					s["answer_points"], s["points"] = num(s["answer_points"])+25, num(s["points"])+25
					v.add(id, 25)
				}
			}
		})
		if d := v.of(id); d != 0 {
			if st, ok := b["state"].(map[string]any); ok {
				st["points"], st["score"] = num(st["points"])+d, num(st["score"])+d
			}
		}
	})
}

// visibilityToggles flips a run's visibility on every call whatever the
// body asks: a handler that reads the request as "toggle".
func visibilityToggles() http.Handler {
	var mu sync.Mutex
	hidden := map[string]bool{}
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/visibility") || r.Header.Get("Authorization") == "" {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		id := runOfPath(r.URL.Path)
		want := "hidden"
		if hidden[id] {
			want = "public"
		}
		r.Header.Set("X-Slip-Visibility", want)
		out, _ := json.Marshal(map[string]string{"visibility": want})
		return out
	}, func(r *http.Request, st *int, m map[string]any) {
		if want := r.Header.Get("X-Slip-Visibility"); want != "" && *st == http.StatusOK {
			mu.Lock()
			hidden[runOfPath(r.URL.Path)] = want == "hidden"
			mu.Unlock()
		}
	})
}

// oldestRuns answers GET /runs?recent=N with the N oldest public runs,
// oldest first: a list walked from the start of the store.
func oldestRuns() http.Handler {
	return recentReordered(nil, func(runs []any) { slices.Reverse(runs) })
}

// recentByLastAction answers GET /runs?recent=N with the N public runs
// acted on last (a run's creation its first action), newest first.
func recentByLastAction() http.Handler {
	tick, last := 0, map[string]int{}
	return recentReordered(func(id string) {
		tick++
		last[id] = tick
	}, func(runs []any) {
		slices.SortStableFunc(runs, func(x, y any) int { return cmp.Compare(last[str(field(y, "run_id"))], last[str(field(x, "run_id"))]) })
	})
}

// recentReordered answers GET /runs?recent=N (10 without it) with the
// first N of every public run the reference lists, put in order by
// reorder; acted hears the run of each accepted write, under one lock
// with reorder.
func recentReordered(acted func(run string), reorder func(runs []any)) http.Handler {
	ref := ppRef()
	var mu sync.Mutex
	return harness.Wrap(ref, nil, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if id, _ := runOf(m); acted != nil && r.Method == http.MethodPost && *st/100 == 2 && id != "" {
			acted(id)
		}
		var n int
		if _, err := fmt.Sscan(cmp.Or(r.URL.Query().Get("recent"), "10"), &n); r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/runs") || *st != http.StatusOK || err != nil {
			return
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, r.URL.Path+"?recent=100", nil))
		var all struct {
			Runs []any `json:"runs"`
		}
		json.Unmarshal(rec.Body.Bytes(), &all)
		reorder(all.Runs)
		m["runs"] = all.Runs[:min(n, len(all.Runs))]
	})
}
