package phantompress

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// shiftState keeps, per run, an offset that a broken target adds to one
// state field in every later answer, so the break stays consistent.
type shiftState struct {
	mu     sync.Mutex
	offset map[string]int
	last   map[string]int
}

func newShift() *shiftState { return &shiftState{offset: map[string]int{}, last: map[string]int{}} }

// runOf finds the run an answer is about: its state's run_id.
func runOf(m map[string]any) (string, map[string]any) {
	st, _ := m["state"].(map[string]any)
	id, _ := st["run_id"].(string)
	if id == "" {
		id, _ = m["run_id"].(string)
	}
	return id, st
}

// actionOf decodes the action a request sends.
func actionOf(body []byte) string {
	var in struct {
		Action string `json:"action"`
	}
	json.Unmarshal(body, &in)
	return in.Action
}

// jsonInt reads a JSON number field as an int.
func jsonInt(m map[string]any, k string) int {
	f, _ := m[k].(float64)
	return int(f)
}

// renameSettlement moves the kit's settlement event to another shape.
func renameSettlement(m map[string]any) {
	events, _ := m["events"].([]any)
	for _, e := range events {
		ev, _ := e.(map[string]any)
		if st, ok := ev["settlement"]; ok {
			ev["type"], ev["result"] = "settled", st
			delete(ev, "settlement")
		}
	}
}

// publishKeepsTrust never takes trust away at publish, keeping the shown
// trust (and the score built on it) consistent in every later answer, and
// reveals its settlement in another event shape than the kit's.
func publishKeepsTrust() http.Handler {
	sh := newShift()
	var action string
	return harness.Wrap(pp.New(suite.ReferenceConfig{Seed: 3}),
		func(r *http.Request, body []byte) []byte {
			if isAction(r) {
				action = actionOf(body)
			}
			return body
		},
		func(r *http.Request, status *int, m map[string]any) {
			renameSettlement(m)
			id, st := runOf(m)
			if st == nil || id == "" {
				return
			}
			sh.mu.Lock()
			defer sh.mu.Unlock()
			real := jsonInt(st, "trust")
			if isAction(r) && action == "publish" && *status == http.StatusOK {
				sh.offset[id] += sh.last[id] - real
			}
			sh.last[id] = real
			shown := min(real+sh.offset[id], 100)
			st["trust"] = shown
			if _, ok := st["score"]; ok {
				st["score"] = jsonInt(st, "score") + 5*(shown-real)
			}
		})
}

// lookCostsNoTurn lets look spend no turn, keeping the shown turn (and the
// score built on it) consistent in every later answer.
func lookCostsNoTurn() http.Handler {
	sh := newShift()
	var action string
	return harness.Wrap(pp.New(suite.ReferenceConfig{Seed: 3}),
		func(r *http.Request, body []byte) []byte {
			if isAction(r) {
				action = actionOf(body)
			}
			return body
		},
		func(r *http.Request, status *int, m map[string]any) {
			id, st := runOf(m)
			if st == nil || id == "" {
				return
			}
			sh.mu.Lock()
			defer sh.mu.Unlock()
			if isAction(r) && action == "look" && *status == http.StatusOK {
				sh.offset[id]++
			}
			turn := jsonInt(st, "turn") - sh.offset[id]
			st["turn"] = turn
			if _, ok := m["turn"]; ok {
				m["turn"] = turn
			}
			if _, ok := st["score"]; ok {
				st["score"] = jsonInt(st, "score") + sh.offset[id]
			}
		})
}

// readsShowNoText answers a read or an interview without the text it
// acquired: no text or claims in its event, and none in its narrative.
func readsShowNoText() http.Handler {
	return harness.Wrap(pp.New(suite.ReferenceConfig{Seed: 3}), nil,
		func(r *http.Request, status *int, m map[string]any) {
			events, _ := m["events"].([]any)
			for _, e := range events {
				ev, _ := e.(map[string]any)
				for _, k := range []string{"document", "testimony"} {
					src, ok := ev[k].(map[string]any)
					if !ok {
						continue
					}
					if text, _ := src["text"].(string); text != "" {
						n, _ := m["narrative"].(string)
						m["narrative"] = strings.ReplaceAll(n, text, "")
					}
					delete(src, "text")
					delete(src, "claims")
				}
			}
		})
}

// missingRunsAre400 answers 400 instead of 404 for a run that does not
// exist on every endpoint but the action.
func missingRunsAre400() http.Handler {
	return harness.Responses(pp.New(suite.ReferenceConfig{Seed: 3}), func(r *http.Request, status *int, m map[string]any) {
		if *status == http.StatusNotFound && !strings.HasSuffix(r.URL.Path, "/action") && strings.Contains(r.URL.Path, "/runs/") {
			*status = http.StatusBadRequest
		}
	})
}

// readNeedsThreeAP refuses a read with exactly 2 AP left, as if a read cost
// 3: it asks the reference for the run's state (status spends nothing)
// before passing the read on.
func readNeedsThreeAP() http.Handler {
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if isAction(r) && actionOf(body) == "read" {
			probe := httptest.NewRequest(http.MethodPost, r.URL.Path, strings.NewReader(`{"action":"status"}`))
			probe.Header.Set("Authorization", r.Header.Get("Authorization"))
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, probe)
			var st struct {
				State map[string]any `json:"state"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &st) == nil && jsonInt(st.State, "ap") == 2 {
				w.Header().Set("Content-Type", "application/json")
				out, _ := json.Marshal(map[string]any{"ok": false, "code": "no_ap", "error": "AP が足りません", "narrative": "デスク：「AP が足りません」",
					"turn": st.State["turn"], "state": st.State, "events": []any{}, "available_actions": []string{"look", "answer", "status"}})
				w.Write(out)
				return
			}
		}
		ref.ServeHTTP(w, r)
	})
}

// logNamesActionsOnly keeps only each entry's action name in the public log.
func logNamesActionsOnly() http.Handler {
	return harness.Responses(pp.New(suite.ReferenceConfig{Seed: 3}), func(r *http.Request, status *int, m map[string]any) {
		entries, ok := m["log"].([]any)
		if !ok || r.Method != http.MethodGet {
			return
		}
		for i, e := range entries {
			entry, _ := e.(map[string]any)
			entries[i] = map[string]any{"seq": entry["seq"], "action": entry["action"]}
		}
	})
}

// ownerWritesUnchecked lets any key extend, hide or review any run: it
// hands those requests to the reference with the run owner's key.
func ownerWritesUnchecked() http.Handler {
	var mu sync.Mutex
	owner := map[string]string{}
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if n := len(parts); n >= 2 && parts[n-2] != "runs" && (parts[n-1] == "extend" || parts[n-1] == "visibility" || parts[n-1] == "review") {
			mu.Lock()
			if key := owner[parts[n-2]]; key != "" {
				r.Header.Set("Authorization", key)
			}
			mu.Unlock()
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, r)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs") {
			var c struct {
				RunID string `json:"run_id"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &c) == nil && c.RunID != "" {
				mu.Lock()
				owner[c.RunID] = r.Header.Get("Authorization")
				mu.Unlock()
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	})
}

// A target that breaks a MUST rule and a REFERENCE choice in the same
// answer fails on the MUST rule: a publish that takes no trust, revealed in
// another event shape, is caught by the seed's invariants in the state
// (issue 8: no masked failures; issue 14: no silent pass behind a REFERENCE
// shape). Looking for free is caught now that every action's turn is MUST.
func TestBrokenBehindOpenShapesIsCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, openShapeCases())
}

var openShapeCases = tamperTable("broken behind open shapes", func() []harness.Case {
	return []harness.Case{
		{Name: "publish takes no trust, settlement in another shape", Rule: "PP-SETTLE-TABLE", Target: publishKeepsTrust(),
			Rules: []string{"PP-SETTLE-TABLE", "PP-SETTLE-FIRED", "PP-EVENTS"}},
		{Name: "look spends no turn", Rule: "PP-ACTION-TURN", Target: lookCostsNoTurn()},
		{Name: "no ownership check on extend, visibility and review", Rule: "PP-ERR-403", Target: ownerWritesUnchecked()},
		{Name: "read and interview show no text", Rule: "PP-READ-TEXT", Target: readsShowNoText()},
		{Name: "a missing run is 400 on every endpoint but the action", Rule: "PP-ERR-404", Target: missingRunsAre400()},
		{Name: "a read needs 3 AP", Rule: "PP-AP-COST", Target: readNeedsThreeAP()},
		{Name: "the log names the actions only", Rule: "PP-RUN-LOG-FULL", Target: logNamesActionsOnly()},
	}
})
