package phantompress

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The targets of the third round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundThreeSlips are the third round's fresh slips: a limit counted in
// bytes, a taken name handed its key again, the hedge-only lock one
// rejection early or kept across cases, a comma-and-space list refused,
// settlement penalties of their own, a write without its owner check, a
// status logged, a leaderboard of latest runs, an ended run offering look.
func roundThreeSlips() []slip {
	return []slip{
		{"a name of 32 Japanese characters refused (bytes counted)", "PP-REGISTER", func() http.Handler {
			return bodyEdit(http.MethodPost, "/register", func(m map[string]any) {
				if s, ok := m["name"].(string); ok && len(s) > 32 && utf8.RuneCountInString(s) <= 32 {
					m["name"] = ""
				}
			})
		}},
		{"a taken name handed its key again", "PP-REGISTER", takenNameKeyAgain},
		{"hedge-only after 2 rejections", "PP-ANSWER-HEDGE-ONLY", func() http.Handler { return rejectionLock(2, false) }},
		{"rejections kept into the next case", "PP-ANSWER-HEDGE-ONLY", func() http.Handler { return rejectionLock(engine.MaxRejections, true) }},
		{"sources \"d1, d2\" refused", "PP-ANSWER-SEPARATORS", func() http.Handler {
			return refusedAsStatus(func(in map[string]any) bool {
				arg, _ := in["arg"].(string)
				return in["action"] == engine.ActAnswer && strings.Contains(arg, ", ")
			}, "unknown_source", "出典  は存在しません")
		}},
		{"a misprint charged by the case's index", "PP-SETTLE-TABLE", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["right"] == false && l["confidence"] == string(engine.Assert) {
					return 3
				}
				return 0
			})
		}},
		{"a hedged ghost costs no extra trust", "PP-SETTLE-GHOST", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["ghost"] == true && l["confidence"] == string(engine.Hedge) {
					return -engine.TrustGhost
				}
				return 0
			})
		}},
		{"another agent can hide a run", "PP-ERR-403", ownerCheckSkipped("/visibility")},
		{"status written to the public log", "PP-STATUS", statusWrittenToLog},
		{"the leaderboard ranks each agent's latest run", "PP-LEADERBOARD", latestRunRanked},
		{"an ended run still offers look and answer", "PP-AVAILABLE-ACTIONS", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				if st, ok := m["state"].(map[string]any); ok && st["status"] != "active" && m["available_actions"] != nil {
					m["available_actions"] = []any{"look", "answer", "status", "comment"}
				}
			})
		}},
	}
}

// roundThreeNeighbours are the third round's faithful readings: a comment
// limit of 500 bytes (the seed names no unit; PP-COMMENT-CHARS is the
// kit's reading, a warning at most), a taken name refused (the seed does
// not say names are shared) and tied scores sharing a rank (the seed
// fixes the order, not how ties are numbered).
func roundThreeNeighbours() []neighbour {
	return []neighbour{
		{"a comment limit counted in bytes", []string{"PP-COMMENT-LENGTH", "PP-COMMENT", "PP-COMMENT-CHARS"}, func() http.Handler {
			return actionEdit(func(in map[string]any) {
				if s, ok := in["arg"].(string); ok && in["action"] == engine.ActComment && len(s) > engine.MaxCommentRunes && utf8.RuneCountInString(s) <= engine.MaxCommentRunes {
					in["arg"] = strings.Repeat("字", engine.MaxCommentRunes+1)
				}
			})
		}},
		{"a taken name refused 409", []string{"PP-REGISTER", "PP-REGISTER-RESPONSE"}, func() http.Handler { return takenName(false) }},
		{"tied scores share a rank", []string{"PP-LEADERBOARD", "PP-RUN-SEEDED"}, func() http.Handler {
			return answersTo(http.MethodGet, "/leaderboard", func(_ *http.Request, _ *int, m map[string]any) {
				var prev map[string]any
				for _, e := range asList(m["entries"]) {
					row, _ := e.(map[string]any)
					if prev != nil && row["score"] == prev["score"] {
						row["rank"] = prev["rank"]
					}
					prev = row
				}
			})
		}},
	}
}

// retryAfterToUTCMidnight answers a daily_write_limit 429 with the seconds
// to the next 00:00 UTC: a reset computed in the server's zone, not JST
// (round 3: in quotaCases, which reaches the limit with --exhaust-quotas).
func retryAfterToUTCMidnight() http.Handler {
	ref := ppRef()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, r)
		if rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") != "" {
			now := time.Now().UTC()
			next := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
			rec.Header().Set("Retry-After", strconv.Itoa(int(next.Sub(now).Seconds())+1))
		}
		copyResponse(w, rec)
	})
}

// refusedAsStatus refuses the actions when picks ok:false with code, as a
// parser stricter than the seed does: the reference is asked for status
// instead, so nothing changes and no turn is spent.
func refusedAsStatus(when func(in map[string]any) bool, code, msg string) http.Handler {
	return refusedAsStatusRun(func(_ string, in map[string]any) bool { return when(in) }, nil, code, msg)
}

// refusedAsStatusRun is refusedAsStatus with the run's ID, and seen,
// which hears every answer to an action that went through.
func refusedAsStatusRun(when func(run string, in map[string]any) bool, seen func(run string, in, out map[string]any), code, msg string) http.Handler {
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		var in map[string]any
		if !isAction(r) || json.Unmarshal(body, &in) != nil || in == nil {
			return body
		}
		if when(runOfPath(r.URL.Path), in) {
			r.Header.Set("X-Slip-Refused", "1")
			return []byte(`{"action":"status"}`)
		}
		if seen != nil {
			r.Header.Set("X-Slip-Action", string(body))
		}
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		if r.Header.Get("X-Slip-Refused") != "" && *st == http.StatusOK {
			m["ok"], m["code"], m["error"], m["narrative"] = false, code, msg, "デスク：「"+msg+"」"
			return
		}
		if raw := r.Header.Get("X-Slip-Action"); raw != "" {
			var in map[string]any
			json.Unmarshal([]byte(raw), &in)
			seen(runOfPath(r.URL.Path), in, m)
		}
	})
}

// rejectionLock locks a question to hedges once its rejections reach
// after, counted per run and question ID; carried keeps the count when the
// next case opens (whose questions reuse the IDs q1, q2, ...).
func rejectionLock(after int, carried bool) http.Handler {
	var mu sync.Mutex
	count := map[string]int{}
	caseOf := map[string]float64{}
	asserts := func(in map[string]any) (string, bool) {
		f := engine.Fields(str(in["arg"]))
		if in["action"] != engine.ActAnswer || len(f) < 3 {
			return "", false
		}
		c := strings.ToLower(f[2])
		return f[0], c == string(engine.Assert) || c == "assert"
	}
	return refusedAsStatusRun(func(run string, in map[string]any) bool {
		q, ok := asserts(in)
		mu.Lock()
		defer mu.Unlock()
		return ok && count[run+" "+q] >= after
	}, func(run string, in, out map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if st, ok := out["state"].(map[string]any); ok && !carried && num(st["case_no"]) != caseOf[run] {
			for k := range count {
				if strings.HasPrefix(k, run+" ") {
					delete(count, k)
				}
			}
			caseOf[run] = num(st["case_no"])
		}
		if q, ok := asserts(in); ok && out["code"] == "rejected" {
			count[run+" "+q]++
		}
	}, "hedge_only", "この設問は留保のみ受け付けます")
}

// trustSpared charges each settled line spared(line) trust less than the
// table does, the settlement's totals and every later state agreeing.
func trustSpared(spared func(line map[string]any) float64) http.Handler {
	v := newRunView()
	return breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		eachSettlement(b, func(s map[string]any) {
			d := 0.0
			for _, l := range asList(s["lines"]) {
				if lm, _ := l.(map[string]any); lm != nil {
					if x := spared(lm); x != 0 {
						lm["trust"] = num(lm["trust"]) + x
						d += x
					}
				}
			}
			if d != 0 {
				s["trust_delta"] = num(s["trust_delta"]) + d
				s["trust_after"] = min(num(s["trust_after"])+d, 100)
				v.add(id, d)
			}
		})
		if d := v.of(id); d != 0 {
			if st, ok := b["state"].(map[string]any); ok {
				st["trust"] = min(num(st["trust"])+d, 100)
				st["score"] = num(st["points"]) + 5*num(st["trust"]) - num(st["turn"])
			}
		}
	})
}

// takenNameKeyAgain answers a registration under a name already taken
// with that agent's registration, key included: a registration keyed by
// name, handing one agent's secret to anyone who sends its name.
func takenNameKeyAgain() http.Handler { return takenName(true) }

// takenName serves registrations under a name already taken with the
// first agent's registration again (again) or a 409 name_taken.
func takenName(again bool) http.Handler {
	ref := ppRef()
	var mu sync.Mutex
	taken := map[string][]byte{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/register") {
			ref.ServeHTTP(w, r)
			return
		}
		raw, _ := readAll(r)
		restore(r, raw)
		var in struct {
			Name string `json:"name"`
		}
		json.Unmarshal(raw, &in)
		mu.Lock()
		first, ok := taken[in.Name]
		mu.Unlock()
		if ok && in.Name != "" {
			w.Header().Set("Content-Type", "application/json")
			if !again {
				w.WriteHeader(http.StatusConflict)
				w.Write([]byte(`{"code":"name_taken","message":"this name is taken","error":"this name is taken"}`))
				return
			}
			w.WriteHeader(http.StatusCreated)
			w.Write(first)
			return
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, r)
		if rec.Code/100 == 2 {
			mu.Lock()
			taken[in.Name] = rec.Body.Bytes()
			mu.Unlock()
		}
		copyResponse(w, rec)
	})
}

// ownerCheckSkipped serves the write route ending in suffix as the run's
// owner whoever sends it: a handler that authenticates the caller but
// never compares it with the run's agent.
func ownerCheckSkipped(suffix string) func() http.Handler {
	return func() http.Handler {
		ref := ppRef()
		var mu sync.Mutex
		owner := map[string]string{}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := runOfPath(r.URL.Path)
			mu.Lock()
			key, known := owner[id]
			mu.Unlock()
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, suffix) && known && r.Header.Get("Authorization") != "" {
				r.Header.Set("Authorization", key)
			}
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, r)
			var made struct {
				RunID string `json:"run_id"`
			}
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs") && json.Unmarshal(rec.Body.Bytes(), &made) == nil && made.RunID != "" {
				mu.Lock()
				owner[made.RunID] = r.Header.Get("Authorization")
				mu.Unlock()
			}
			copyResponse(w, rec)
		})
	}
}

// statusWrittenToLog writes every accepted status into the run's public log, as
// a handler that logs each action before looking at which one it was.
func statusWrittenToLog() http.Handler {
	var mu sync.Mutex
	logged := map[string][]map[string]any{}
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		if isAction(r) && actionOf(body) == engine.ActStatus {
			r.Header.Set("X-Slip-Status", "1")
		}
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		id := runOfPath(r.URL.Path)
		if r.Header.Get("X-Slip-Status") != "" && m["ok"] == true {
			logged[id] = append(logged[id], map[string]any{"turn": m["turn"], "action": "status", "arg": "", "ok": true,
				"narrative": m["narrative"], "events": []any{}, "at": time.Now().UTC().Format(time.RFC3339)})
			return
		}
		entries, ok := m["log"].([]any)
		if r.Method != http.MethodGet || !ok || len(logged[id]) == 0 {
			return
		}
		for _, e := range logged[id] {
			entries = append(entries, e)
		}
		slices.SortStableFunc(entries, func(x, y any) int { return cmp.Compare(num(field(x, "turn")), num(field(y, "turn"))) })
		for i, e := range entries {
			if em, ok := e.(map[string]any); ok {
				em["seq"] = i + 1
			}
		}
		m["log"] = entries
	})
}

// latestRunRanked ranks each agent by its latest public, unseeded run (the
// newest in GET /runs) instead of its best: a board that overwrites an
// agent's row with each new run.
func latestRunRanked() http.Handler {
	ref := ppRef()
	return harness.Wrap(ref, nil, func(r *http.Request, st *int, m map[string]any) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/leaderboard") || *st != http.StatusOK {
			return
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/leaderboard")+"/runs?recent=100", nil))
		var recent struct {
			Runs []struct {
				RunID  string         `json:"run_id"`
				Agent  map[string]any `json:"agent"`
				Score  float64        `json:"score"`
				Status string         `json:"status"`
				Seeded bool           `json:"seeded"`
			} `json:"runs"`
		}
		json.Unmarshal(rec.Body.Bytes(), &recent)
		latest := map[string]map[string]any{}
		for _, run := range recent.Runs {
			if a := str(run.Agent["id"]); !run.Seeded && latest[a] == nil {
				latest[a] = map[string]any{"score": run.Score, "run_id": run.RunID, "status": run.Status}
			}
		}
		rows := asList(m["entries"])
		for _, e := range rows {
			row, _ := e.(map[string]any)
			agent, _ := row["agent"].(map[string]any)
			for k, v := range latest[str(agent["id"])] {
				row[k] = v
			}
		}
		slices.SortStableFunc(rows, func(x, y any) int { return cmp.Compare(num(field(y, "score")), num(field(x, "score"))) })
		for i, e := range rows {
			if row, ok := e.(map[string]any); ok {
				row["rank"] = i + 1
			}
		}
	})
}

// field is v's key k when v is a JSON object, else nil.
func field(v any, k string) any {
	m, _ := v.(map[string]any)
	return m[k]
}
