package iyra_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"

	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// More targets of the third round of slipCases (broken_slips_round3_test.go
// holds the table and its neighbours): the middleware of the slips that
// need state of their own.

// verificationRepeated answers a verification of an agent already verified
// with the first verification's answer, api_key included: a verification
// made idempotent by replaying its stored response.
func verificationRepeated() http.Handler {
	var mu sync.Mutex
	first := map[string]map[string]any{}
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		var m map[string]any
		if strings.HasSuffix(r.URL.Path, "/agents/verify") && json.Unmarshal(body, &m) == nil && m != nil {
			r.Header.Set("X-Agent", str(m["agent_id"]))
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		id := r.Header.Get("X-Agent")
		mu.Lock()
		defer mu.Unlock()
		if *st == http.StatusOK && m["api_key"] != nil {
			first[id] = maps.Clone(m)
		} else if m["code"] == "already_verified" && id != "" && first[id] != nil {
			*st = http.StatusOK
			replaceAll(m, maps.Clone(first[id]))
		}
	}}
}

// keysSharedByAgents stores Idempotency-Keys per server instead of per
// agent: a verified agent creating, or looking up, a key another agent
// used first is answered as that agent, with its session.
func keysSharedByAgents() http.Handler {
	var mu sync.Mutex
	issued := map[string]bool{}
	first := map[string]string{}
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		key, auth := r.Header.Get("Idempotency-Key"), r.Header.Get("Authorization")
		creation := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions")
		if key == "" || (!creation && !strings.HasSuffix(r.URL.Path, "/idempotency/status")) {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		if !issued[strings.TrimPrefix(auth, "Bearer ")] {
			return body
		}
		if owner, ok := first[key]; ok {
			r.Header.Set("Authorization", owner)
		} else if creation {
			first[key] = auth
		}
		return body
	}, resp: func(_ *http.Request, _ *int, m map[string]any) {
		if k, ok := m["api_key"].(string); ok && k != "" {
			mu.Lock()
			issued[k] = true
			mu.Unlock()
		}
	}}
}

// replayWithRefusals lists every action the session was sent in its
// replay, the refused ones beside the accepted: a replay written from the
// request log instead of the accepted actions.
func replayWithRefusals() http.Handler {
	type refused struct {
		after  int
		action any
	}
	var mu sync.Mutex
	log := map[string][]refused{}
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		if isActions(r) {
			r.Header.Set("X-Body", string(body))
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, server.BasePath+"/sessions/"), "/")
		mu.Lock()
		defer mu.Unlock()
		var in map[string]any
		if isActions(r) && *st/100 == 4 && json.Unmarshal([]byte(r.Header.Get("X-Body")), &in) == nil && in["action"] != nil && m["code"] != "stale_revision" {
			rev, _ := m["revision"].(float64)
			log[id] = append(log[id], refused{int(rev), in["action"]})
		}
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/replay") || *st != http.StatusOK {
			return
		}
		var out []any
		rs := log[id]
		for i, e := range append(asAnyList(m["actions"]), nil) {
			for len(rs) > 0 && rs[0].after <= i {
				out = append(out, map[string]any{"revision": rs[0].after, "action": rs[0].action})
				rs = rs[1:]
			}
			if e != nil {
				out = append(out, e)
			}
		}
		m["actions"] = out
	}}
}

// gathered is the evidence the inspected sites gave, before any claim
// change's cost.
func gathered(o map[string]any) float64 {
	total := 0
	for site, eff := range riyra.DefaultRules().Effects {
		if o[string(site)+"_checked"] == true {
			total += eff.Evidence
		}
	}
	return float64(total)
}

// truthInRefusals names the session's truth in the message of each
// refused action: a rejection explained from the server's own record.
func truthInRefusals() http.Handler {
	var mu sync.Mutex
	variant := map[string]string{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if id, v := str(m["session_id"]), str(m["variant"]); id != "" && v != "" {
			variant[id] = v
		}
		if !isActions(r) || *st/100 != 4 {
			return
		}
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, server.BasePath+"/sessions/"), "/actions")
		if v, ok := riyra.DefaultPack().Variant(variant[id]); ok && v.Truth != "" {
			m["message"] = str(m["message"]) + " (the record shows: " + v.Truth + ")"
		}
	}}
}

// storedCreations answers a repeated creation with the bytes of the
// key's first answer, as an idempotency layer storing responses does: the
// same session, as it stood when it was created.
func storedCreations() http.Handler {
	var mu sync.Mutex
	first := map[string]map[string]any{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") || *st/100 != 2 {
			return
		}
		k := r.URL.Path + " " + r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key")
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := first[k]; ok {
			replaceAll(m, maps.Clone(prev))
			return
		}
		first[k] = maps.Clone(m)
	}}
}

// firstAllyOnly writes a verified epilogue from the first ally alone, as
// a handler reading allies[0] does: with both factions allied, the
// drifters' consequence is left out.
func firstAllyOnly() http.Handler {
	pack := riyra.DefaultPack()
	return observationOf(func(_, o map[string]any) {
		if allies := asAnyList(o["allies"]); o["ending"] == riyra.TruthReleased && len(allies) > 1 {
			o["epilogue"] = pack.Epilogues[riyra.TruthReleased] + " " + pack.Epilogues[str(allies[0])]
		}
	})
}

// refusalsUnverify reports a session's replay unverified once any of its
// actions was refused: a chain checked against a log that holds the
// refusals while the chain holds the accepted actions alone.
func refusalsUnverify() http.Handler {
	var mu sync.Mutex
	refused := map[string]bool{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, server.BasePath+"/sessions/"), "/")
		mu.Lock()
		defer mu.Unlock()
		if isActions(r) && *st/100 == 4 {
			refused[id] = true
		}
		if in, ok := m["integrity"].(map[string]any); ok && refused[id] && strings.HasSuffix(r.URL.Path, "/replay") {
			in["verified"] = false
		}
	}}
}

// finishedKeysForgotten forgets an Idempotency-Key once its session has
// finished, as a key index over active sessions only does: a repeated
// creation (creation true) makes a new session, a look-up (false) finds
// nothing.
func finishedKeysForgotten(creation bool) http.Handler {
	var mu sync.Mutex
	sessionOf := map[string]string{}
	finished := map[string]bool{}
	n := 0
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		key := r.Header.Get("Idempotency-Key")
		mu.Lock()
		defer mu.Unlock()
		if !finished[sessionOf[r.Header.Get("Authorization")+" "+key]] {
			return body
		}
		n++
		switch {
		case creation && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions"):
			r.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", key, n))
		case !creation && strings.HasSuffix(r.URL.Path, "/idempotency/status"):
			r.Header.Set("Idempotency-Key", fmt.Sprintf("%s-forgotten-%d", key, n))
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		id := str(m["session_id"])
		mu.Lock()
		defer mu.Unlock()
		k := r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key")
		if _, ok := sessionOf[k]; !ok && id != "" && *st/100 == 2 && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
			sessionOf[k] = id
		}
		if id != "" && m["terminal"] == true {
			finished[id] = true
		}
	}}
}

// revisionsAheadTaken refuses only revisions behind the session's, as a
// guard written rev < current does: a revision ahead is taken for the
// latest.
func revisionsAheadTaken() http.Handler {
	inner := ref()
	return tamper{h: inner, req: func(r *http.Request, body []byte) []byte {
		var m map[string]any
		if !isActions(r) || json.Unmarshal(body, &m) != nil || m == nil {
			return body
		}
		cur := readSession(inner, r)
		if rev, ok := m["revision"].(float64); ok && cur != nil && rev > cur["revision"].(float64) {
			return setBodyField(r, body, "/actions", "revision", cur["revision"])
		}
		return body
	}}
}

// budgetEndingOpen answers an action on a session the budget ended with
// its unchanged state and 200, where the reference refuses it: a guard
// that knows the broadcast and withdrawal endings only.
func budgetEndingOpen() http.Handler {
	return acceptsRefusalWhen(func(state map[string]any) bool {
		o, _ := state["observation"].(map[string]any)
		return o["ending"] == riyra.BudgetExhausted
	}, "session_finished")
}

// untouchedWithdrawalsRefused refuses a withdrawal from a session no
// action was accepted in yet, as a handler that takes "nothing to
// withdraw from" for a rule does.
func untouchedWithdrawalsRefused() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Action struct {
				Type string `json:"type"`
			} `json:"action"`
		}
		if isActions(r) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if json.Unmarshal(body, &in) == nil && in.Action.Type == riyra.TypeWithdraw {
				if cur := readSession(inner, r); cur != nil && cur["revision"] == float64(0) {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusUnprocessableEntity)
					_, _ = w.Write([]byte(`{"code":"nothing_to_withdraw","message":"investigate before withdrawing","revision":0}`))
					return
				}
			}
		}
		inner.ServeHTTP(w, r)
	})
}

// rulesWith is the target of a slip planted as a Rules flag (edit sets it).
func rulesWith(edit func(*riyra.Rules)) func() http.Handler {
	return func() http.Handler { return withRules(edit) }
}

// atEnding is the target editing every session answer whose observation
// ended ending.
func atEnding(ending string, edit func(m, o map[string]any)) func() http.Handler {
	return func() http.Handler {
		return observationOf(func(m, o map[string]any) {
			if o["ending"] == ending {
				edit(m, o)
			}
		})
	}
}

// deliberationPinned keeps the chapter at deliberation once a claim is
// selected, through later inspections, until another kind of action:
// inspection written to return to inquiry from arrival and coalition
// only.
func deliberationPinned() http.Handler {
	var mu sync.Mutex
	pinned := map[string]bool{}
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		var in struct {
			Action struct {
				Type string `json:"type"`
			} `json:"action"`
		}
		if isActions(r) && json.Unmarshal(body, &in) == nil {
			r.Header.Set("X-Type", in.Action.Type)
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		id := str(m["session_id"])
		o, _ := m["observation"].(map[string]any)
		if id == "" || o == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if t := r.Header.Get("X-Type"); t != "" && *st/100 == 2 && t != riyra.TypeInvestigate {
			pinned[id] = t == riyra.TypeSelectClaim
		}
		if pinned[id] && o["chapter"] == riyra.ChapterInquiry {
			o["chapter"] = riyra.ChapterDeliberation
		}
	}}
}
