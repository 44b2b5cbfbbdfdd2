package phantompress

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The targets of the fifth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundFiveSlips are the fifth round's fresh slips: the answer's source
// separators and a sourceless hedge refused, an overwrite refused, an empty
// comment accepted, the optional owner refused, trust past its cap, a fired
// run still active, and status codes of the finished and unknown-key paths.
func roundFiveSlips() []slip {
	return []slip{
		{"sources after a comma and a space refused", "PP-ANSWER-SEPARATORS", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				return in["action"] == engine.ActAnswer && strings.Contains(str(in["arg"]), ", ")
			}, "bad_arg", "出典はカンマ区切りで指定してください")
		}},
		{"sources separated only by spaces refused", "PP-ANSWER-SEPARATORS", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				arg := str(in["arg"])
				return in["action"] == engine.ActAnswer && len(engine.Fields(arg)) > 4 && !strings.ContainsAny(arg, ",、")
			}, "bad_arg", "出典はカンマ区切りで指定してください")
		}},
		{"a hedge without a source refused", "PP-ANSWER-HEDGE-NO-SOURCE", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				f := engine.Fields(str(in["arg"]))
				return in["action"] == engine.ActAnswer && len(f) == 3 && f[2] == string(engine.Hedge)
			}, "no_source", "出典を指定してください")
		}},
		{"a second answer to the same question refused", "PP-ANSWER-OVERWRITE", answerOnce},
		{"an empty comment accepted", "PP-ACTION-ARG-REQUIRED", func() http.Handler {
			return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
				var in map[string]any
				if isAction(r) && json.Unmarshal(body, &in) == nil && in["action"] == engine.ActComment && strings.TrimSpace(str(in["arg"])) == "" {
					out, _ := json.Marshal(map[string]string{"action": engine.ActComment, "arg": "-"})
					return out
				}
				return body
			}, nil)
		}},
		{"an owner given at registration refused", "PP-REGISTER-OWNER", func() http.Handler {
			return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
				var in map[string]any
				if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/register") && json.Unmarshal(body, &in) == nil && in["owner"] != nil {
					r.Header.Set("X-Slip-Refused", "1")
					return []byte(`{}`)
				}
				return body
			}, func(r *http.Request, st *int, m map[string]any) {
				if r.Header.Get("X-Slip-Refused") != "" {
					*st = http.StatusBadRequest
					replaceWith(m, map[string]any{"code": "bad_request", "error": "unknown field: owner"})
				}
			})
		}},
		{"a cleared case adds 20 trust, past 100", "PP-TRUST-INIT", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) {
					if num(st["case_no"]) >= 2 && num(st["trust"]) > 0 {
						st["trust"] = num(st["trust"]) + 20
						if _, ok := st["score"]; ok {
							st["score"] = num(st["score"]) + 100
						}
					}
				})
			})
		}},
		{"a fired run still reported active", "PP-STATE-STATUS-ENDED", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) {
					if _, ok := st["trust"]; ok && num(st["trust"]) <= 0 {
						st["status"] = "active"
					}
				})
			})
		}},
		{"an action on a finished run answered 400", "PP-ERR-409-FINISHED", func() http.Handler {
			return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
				if isAction(r) && *st == http.StatusConflict {
					*st = http.StatusBadRequest
				}
			})
		}},
		{"an unknown key answered 404", "PP-ERR-401", func() http.Handler {
			return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
				if *st == http.StatusUnauthorized {
					*st = http.StatusNotFound
					replaceWith(m, map[string]any{"code": "not_found", "error": "no such agent"})
				}
			})
		}},
		{"a read with exactly its 2 AP left refused", "PP-AP-INSUFFICIENT", readAtTwoAP},
		{"a read without its arg taken for a look", "PP-ACTION-ARG-REQUIRED", func() http.Handler {
			return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
				var in map[string]any
				if isAction(r) && json.Unmarshal(body, &in) == nil && in["action"] == engine.ActRead && strings.TrimSpace(str(in["arg"])) == "" {
					return []byte(`{"action":"look"}`)
				}
				return body
			}, nil)
		}},
	}
}

// roundFiveNeighbours are the fifth round's faithful readings: an
// extension of a finished run accepted (the seed's 409 is for "終了済み run
// へのアクション", an action; the extend route names no finished case) and
// sources split on a semicolon or 、 refused (the seed names only "comma or
// space").
func roundFiveNeighbours() []neighbour {
	return []neighbour{
		{"an extension on a finished run accepted", []string{"PP-ERR-409-FINISHED", "PP-RUN-EXTEND-LOGGED"}, func() http.Handler {
			return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
				if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/extend") && *st == http.StatusConflict {
					*st = http.StatusOK
					replaceWith(m, map[string]any{"run_id": runOfPath(r.URL.Path), "budget_turns": 0, "extension": map[string]any{}})
				}
			})
		}},
		{"sources split on a semicolon or 、 refused", []string{"PP-ANSWER-SEPARATORS", "PP-ANSWER-ASSERT-SOURCES", "PP-ANSWER-BACKING"}, func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				return in["action"] == engine.ActAnswer && strings.ContainsAny(str(in["arg"]), ";、")
			}, "bad_arg", "出典はカンマか空白で区切ってください")
		}},
	}
}

// answerOnce refuses an answer to a question the run has answered already
// (a handler that treats the slot as write-once).
func answerOnce() http.Handler {
	var mu sync.Mutex
	done := map[string]bool{}
	key := func(run string, in map[string]any) string {
		f := engine.Fields(str(in["arg"]))
		if in["action"] != engine.ActAnswer || len(f) == 0 {
			return ""
		}
		return run + "/" + f[0]
	}
	return refusedAsStatusRun(func(run string, in map[string]any) bool {
		mu.Lock()
		defer mu.Unlock()
		k := key(run, in)
		return k != "" && done[k]
	}, func(run string, in, out map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if k := key(run, in); k != "" && out["ok"] == true {
			done[k] = true
		}
		if in["action"] == engine.ActPublish && out["ok"] == true {
			for k := range done {
				if strings.HasPrefix(k, run+"/") {
					delete(done, k)
				}
			}
		}
	}, "already_answered", "この設問には回答済みです")
}

// readAtTwoAP refuses a read when the run has exactly the read's 2 AP left
// (a test of ap <= cost where ap < cost was meant), the AP heard from the
// run's last state.
func readAtTwoAP() http.Handler {
	var mu sync.Mutex
	ap := map[string]float64{}
	return refusedAsStatusRun(func(run string, in map[string]any) bool {
		mu.Lock()
		defer mu.Unlock()
		a, ok := ap[run]
		return ok && in["action"] == engine.ActRead && a == 2
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
