package phantompress

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The targets of the sixth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundSixSlips are the sixth round's fresh slips: settlement figures on
// rows no earlier round bent (a wrong hedge's trust, an asserted ghost's
// extra, a misprint's points, the VICTORY bonus), a case's witnesses, a
// publish at 0 AP, the recent list one short and a shown-again run kept
// off it, run IDs outside hex and an extension logged with its amount.
func roundSixSlips() []slip {
	return []slip{
		{"a wrong hedge costs no trust", "PP-SETTLE-TABLE", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["right"] == false && l["confidence"] == string(engine.Hedge) {
					return 3
				}
				return 0
			})
		}},
		{"an asserted ghost charged its misprint only", "PP-SETTLE-GHOST", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["ghost"] == true && l["confidence"] == string(engine.Assert) {
					return -engine.TrustGhost
				}
				return 0
			})
		}},
		{"a misprint charged -40 points", "PP-SETTLE-TABLE", func() http.Handler {
			return pointsShifted(func(s map[string]any) float64 {
				d := 0.0
				for _, l := range asList(s["lines"]) {
					if lm, _ := l.(map[string]any); lm != nil && lm["right"] == false && lm["confidence"] == string(engine.Assert) {
						lm["points"] = num(lm["points"]) - 20
						d -= 20
					}
				}
				s["answer_points"] = num(s["answer_points"]) + d
				return d
			})
		}},
		{"VICTORY adds 1000", "PP-SETTLE-BONUS", func() http.Handler {
			return pointsShifted(func(s map[string]any) float64 {
				if num(s["victory_bonus"]) != 1500 {
					return 0
				}
				s["victory_bonus"] = 1000.0
				return -500
			})
		}},
		{"case 3 shows 2 witnesses", "PP-CASE-TABLE", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) {
					c, _ := st["case"].(map[string]any)
					if ws := asList(c["witnesses"]); num(st["case_no"]) == 3 && len(ws) == 3 {
						c["witnesses"] = ws[:2]
					}
				})
			})
		}},
		{"a publish with 0 AP left refused", "PP-AP-EXHAUSTED", publishNeedsAP},
		{"?recent=N lists N-1 runs", "PP-RECENT", func() http.Handler {
			return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
				n, err := strconv.Atoi(r.URL.Query().Get("recent"))
				if runs := asList(m["runs"]); r.Method == http.MethodGet && *st == http.StatusOK && err == nil && n >= 1 && len(runs) >= n {
					m["runs"] = runs[:n-1]
				}
			})
		}},
		{"a run shown again kept off the recent runs", "PP-RUN-VISIBILITY", onceHiddenUnlisted},
		{"run IDs of 12 base-36 characters", "PP-RUN-CREATE", func() http.Handler {
			return harness.Respell(ppRef(), harness.Respelling{
				Path: func(p string) string {
					return base36RunIDs.ReplaceAllStringFunc(p, func(id string) string { return "run_" + strings.Map(digitOfLetter, id[4:]) })
				},
				Body: func(b []byte) []byte {
					return shortRunIDs.ReplaceAllFunc(b, func(id []byte) []byte { return []byte("run_" + strings.Map(letterOfDigit, string(id[4:]))) })
				},
			})
		}},
		{"an extension logged with its turns as the new budget", "PP-RUN-EXTEND-LOGGED", func() http.Handler {
			return harness.Responses(ppRef(), func(r *http.Request, _ *int, m map[string]any) {
				if r.Method != http.MethodGet {
					return
				}
				for _, e := range asList(m["extensions"]) {
					if em, _ := e.(map[string]any); em != nil {
						em["to"] = em["turns"]
					}
				}
			})
		}},
	}
}

// roundSixNeighbours are the sixth round's faithful readings: a run shown
// again listed as the newest (whether recent counts from a run's start or
// its last write is open) and a visibility change answered 204 without a
// body (the seed gives visibility no answer shape).
func roundSixNeighbours() []neighbour {
	return []neighbour{
		{"a run shown again listed first", []string{"PP-RUN-VISIBILITY", "PP-RECENT"}, shownAgainFirst},
		{"a visibility change answered 204", []string{"PP-RUN-VISIBILITY", "PP-RUN-HIDDEN-404"}, func() http.Handler {
			return harness.Respell(ppRef(), harness.Respelling{Status: func(r *http.Request, st int) int {
				if st == http.StatusOK && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/visibility") {
					return http.StatusNoContent
				}
				return st
			}})
		}},
	}
}

// base36RunIDs are run IDs as the base-36 slip spells them.
var base36RunIDs = regexp.MustCompile(`run_[a-p]{12}`)

// letterOfDigit spells a hex digit 0-9 as one of g-p (a-f stay), so a
// run ID reads as a random base-36 string; digitOfLetter undoes it.
func letterOfDigit(r rune) rune {
	if r >= '0' && r <= '9' {
		return 'g' + r - '0'
	}
	return r
}

func digitOfLetter(r rune) rune {
	if r >= 'g' && r <= 'p' {
		return '0' + r - 'g'
	}
	return r
}

// pointsShifted lets edit change each settlement and return the points
// it moved, then carries them into the settlement's points and the run's
// later states (points and score), as an engine whose bonus or table
// constant is wrong would show them.
func pointsShifted(edit func(s map[string]any) float64) http.Handler {
	v := newRunView()
	return breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		eachSettlement(b, func(s map[string]any) {
			if d := edit(s); d != 0 {
				s["points"] = num(s["points"]) + d
				v.add(id, d)
			}
		})
		if d := v.of(id); d != 0 {
			if st, ok := b["state"].(map[string]any); ok {
				st["points"] = num(st["points"]) + d
				st["score"] = num(st["points"]) + 5*num(st["trust"]) - num(st["turn"])
			}
		}
	})
}

// publishNeedsAP refuses a publish while the run's last state showed 0
// AP: a publish guarded by the same AP check as read.
func publishNeedsAP() http.Handler {
	var mu sync.Mutex
	ap := map[string]float64{}
	return refusedAsStatusRun(func(run string, in map[string]any) bool {
		mu.Lock()
		defer mu.Unlock()
		a, ok := ap[run]
		return ok && in["action"] == engine.ActPublish && a == 0
	}, func(run string, _, out map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if st, ok := out["state"].(map[string]any); ok {
			if a, ok := st["ap"].(float64); ok {
				ap[run] = a
			}
		}
	}, "insufficient_ap", "APが足りません")
}

// onceHiddenUnlisted leaves every run that was ever hidden out of GET
// /runs, shown again or not: the listing's own hidden flag set by the
// hide and never cleared by the show.
func onceHiddenUnlisted() http.Handler {
	var mu sync.Mutex
	hidden := map[string]bool{}
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		var in map[string]any
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/visibility") && json.Unmarshal(body, &in) == nil && in["visibility"] == "hidden" {
			r.Header.Set("X-Slip-Hide", "1")
		}
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("X-Slip-Hide") != "" && *st == http.StatusOK {
			hidden[runOfPath(r.URL.Path)] = true
		}
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/runs") {
			return
		}
		var kept []any
		for _, e := range asList(m["runs"]) {
			if !hidden[str(field(e, "run_id"))] {
				kept = append(kept, e)
			}
		}
		if _, ok := m["runs"]; ok {
			m["runs"] = append([]any{}, kept...)
		}
	})
}

// shownAgainFirst lists a run made public again first in GET /runs, as
// a listing ordered by the last write would.
func shownAgainFirst() http.Handler {
	var mu sync.Mutex
	shown := ""
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		var in map[string]any
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/visibility") && json.Unmarshal(body, &in) == nil && in["visibility"] == "public" {
			r.Header.Set("X-Slip-Show", "1")
		}
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("X-Slip-Show") != "" && *st == http.StatusOK {
			shown = runOfPath(r.URL.Path)
		}
		runs := asList(m["runs"])
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/runs") || shown == "" {
			return
		}
		for i, e := range runs {
			if str(field(e, "run_id")) == shown {
				m["runs"] = append([]any{e}, append(append([]any{}, runs[:i]...), runs[i+1:]...)...)
				return
			}
		}
	})
}
