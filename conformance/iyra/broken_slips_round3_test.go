package iyra_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// The targets of the third round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundThreeSlips are the third round's fresh slips: a proof difficulty
// read in bits or one zero too strict, a key disclosed again, idempotency
// keys stored per server, a version checked against the catalogue, a
// revision defaulted, gates left out or read on the wrong resource,
// refusals in the replay, a score of gathered evidence, a budget spent by
// refusals, an epilogue at the budget's end, a catalogue trimmed by
// inspection, the truth in a refusal's message, one ally's consequence
// for two, a site revealing another's account, a replay field left out
// when false or unverified by a refusal, legal_actions left out once
// empty, a finished session's key forgotten, guards and readings tried
// in one state only (a revision ahead, a site again after another, the
// budget's ending, capped gauges, an untouched withdrawal).
func roundThreeSlips() []slip {
	return []slip{
		{"the difficulty read as leading zero bits", "IYRA-PROOF-POW", difficultyInBits},
		{"a second verification discloses the api_key again", "IYRA-KEY-ONCE", verificationRepeated},
		{"Idempotency-Keys shared by every agent", "IYRA-AUTH-BEARER", keysSharedByAgents},
		{"accepted_version_id checked against every hosted version", "IYRA-SESSION-VERSION", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/store/"+server.Slug+"/sessions") || json.Unmarshal(body, &m) != nil {
					return body
				}
				if v := str(m["accepted_version_id"]); v == server.OtherVersionID || v == server.RolloutVersionID {
					return setBodyField(r, body, "/sessions", "accepted_version_id", server.VersionID)
				}
				return body
			}}
		}},
		{"a missing revision read as 0", "IYRA-REVISION-STALE", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if !isActions(r) || json.Unmarshal(body, &m) != nil || m == nil {
					return body
				}
				if _, ok := m["revision"]; !ok {
					return setBodyField(r, body, "/actions", "revision", 0)
				}
				return body
			}}
		}},
		{"a revision ahead of the session's accepted", "IYRA-REVISION-STALE", revisionsAheadTaken},
		{"a claim change taken with no evidence", "IYRA-CLAIM-CHANGE", rulesWith(func(r *riyra.Rules) { r.ChangeUngated = true })},
		{"the replay lists the refused actions too", "IYRA-REPLAY-FAITHFUL", replayWithRefusals},
		{"a verified ending scores the evidence gathered, a change's cost left out", "IYRA-SCORE", atEnding(riyra.TruthReleased, func(m, o map[string]any) {
			m["score"] = gathered(o)
		})},
		{"rejected actions spend the budget", "IYRA-BUDGET", rulesWith(func(r *riyra.Rules) { r.RejectionsSpend = true })},
		{"an epilogue written when the budget runs out", "IYRA-EPILOGUE", atEnding(riyra.BudgetExhausted, func(_, o map[string]any) {
			o["epilogue"] = "The relay fell silent before the city heard anything."
		})},
		{"legal_actions drops the inspected sites", "IYRA-LEGAL-CATALOGUE", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				for _, a := range asAnyList(m["legal_actions"]) {
					am, _ := a.(map[string]any)
					ps, _ := am["parameters"].(map[string]any)
					if am["type"] != riyra.TypeInvestigate || ps == nil {
						continue
					}
					var left []any
					for _, s := range asAnyList(ps["site"]) {
						if o[str(s)+"_checked"] != true {
							left = append(left, s)
						}
					}
					ps["site"] = left
				}
			})
		}},
		{"the truth in a refused action's message", "IYRA-VISIBILITY", truthInRefusals},
		{"the alliance gate reads evidence, not trust", "IYRA-ALLY-TRUST", rulesWith(func(r *riyra.Rules) { r.AllyGateOnEvidence = true })},
		{"a digest needs more than difficulty zeroes", "IYRA-PROOF-POW", func() http.Handler {
			return tamper{h: server.New(server.Options{Seed: 3, Difficulty: 5}), resp: func(r *http.Request, st *int, m map[string]any) {
				if strings.HasSuffix(r.URL.Path, "/tasks/play/accept") && *st/100 == 2 {
					m["difficulty"] = 4
				}
			}}
		}},
		{"a verified ending with both allies states the first ally's consequence only", "IYRA-FACTION-CONSEQUENCE", firstAllyOnly},
		{"trusted_ranking_eligible left out when false (omitempty)", "IYRA-REPLAY", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if m["trusted_ranking_eligible"] == false {
					delete(m, "trusted_ranking_eligible")
				}
			})
		}},
		{"a refusal breaks the replay's integrity", "IYRA-REPLAY", refusalsUnverify},
		{"legal_actions left out once empty (omitempty)", "IYRA-SESSION-SHAPE", func() http.Handler {
			return rewrites{ref(), func(m map[string]any) {
				if l, ok := m["legal_actions"].([]any); ok && len(l) == 0 {
					delete(m, "legal_actions")
				}
			}}
		}},
		{"a finished session's key makes a new session", "IYRA-SESSION-KEY-IDEMPOTENT", func() http.Handler { return finishedKeysForgotten(true) }},
		{"a finished session's key is looked up as unknown", "IYRA-IDEMPOTENCY-STATUS", func() http.Handler { return finishedKeysForgotten(false) }},
		{"a site inspected again after another one", "IYRA-SITE-ONCE", rulesWith(func(r *riyra.Rules) { r.RepeatAfterAnother = true })},
		{"a session ended by the budget takes more actions", "IYRA-TERMINAL-REJECTS", budgetEndingOpen},
		{"the budget's ending leaves the phase investigating", "IYRA-TERMINAL-SIGNALS", atEnding(riyra.BudgetExhausted, func(_, o map[string]any) {
			o["phase"] = riyra.PhaseInvestigating
		})},
		{"evidence and signal capped at their targets", "IYRA-SITE-EFFECTS", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				for k, top := range map[string]float64{"evidence": 4, "signal": 3} {
					if v, ok := o[k].(float64); ok && v > top {
						o[k] = top
					}
				}
			})
		}},
		{"a withdrawal refused before anything is done", "IYRA-WITHDRAW", untouchedWithdrawalsRefused},
		{"the harbor reveals the archive's testimony", "IYRA-SITE-REVEAL", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				if v, ok := riyra.DefaultPack().Variant(str(m["variant"])); ok && o["harbor_checked"] == true {
					o["harbor_testimony"] = v.ArchiveTestimony
				}
			})
		}},
	}
}

// roundThreeNeighbours are the third round's faithful readings: a
// solution spelled with leading zeros accepted (the contract asks for a
// "decimal solution string", the kit's canonical spelling is its own
// IYRA-PROOF-DECIMAL), a repeated creation answered with its stored first
// answer (the same session, as an idempotency layer keeps it), both
// allies' consequences in either order, and expires_at written with a
// zone offset (RFC 3339 allows any; the contract fixes no zone).
func roundThreeNeighbours() []neighbour {
	return []neighbour{
		{"a solution with leading zeros accepted", []string{"IYRA-PROOF-POW", "IYRA-PROOF-CHALLENGE-BINDING", "IYRA-KEY-ONCE"}, func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/agents/verify") || json.Unmarshal(body, &m) != nil || m == nil {
					return body
				}
				if s := str(m["solution"]); leadingZeros.MatchString(s) {
					return setBodyField(r, body, "/agents/verify", "solution", strings.TrimLeft(s, "0"))
				}
				return body
			}}
		}},
		{"a repeated creation answered with its first answer, stored", []string{"IYRA-SESSION-KEY-IDEMPOTENT", "IYRA-SESSION-KEY-REUSE", "IYRA-SESSION-SHAPE"}, storedCreations},
		{"both allies' consequences in the other order", []string{"IYRA-FACTION-CONSEQUENCE"}, func() http.Handler {
			pack := riyra.DefaultPack()
			return observationOf(func(_, o map[string]any) {
				if o["ending"] == riyra.TruthReleased && len(asAnyList(o["allies"])) > 1 {
					o["epilogue"] = strings.Join([]string{pack.Epilogues[riyra.TruthReleased], pack.Epilogues[string(riyra.Drifters)], pack.Epilogues[string(riyra.Keepers)]}, " ")
				}
			})
		}},
		{"expires_at with a +09:00 offset", []string{"IYRA-ACCEPT-FIELDS", "IYRA-PROOF-POW", "IYRA-PROOF-EXPIRY"}, func() http.Handler {
			tokyo := time.FixedZone("JST", 9*3600)
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if t, err := time.Parse(time.RFC3339, str(m["expires_at"])); err == nil && strings.HasSuffix(r.URL.Path, "/tasks/play/accept") {
					m["expires_at"] = t.In(tokyo).Format(time.RFC3339)
				}
			}}
		}},
	}
}

// leadingZeros matches a decimal with at least one leading zero.
var leadingZeros = regexp.MustCompile(`^0+[1-9][0-9]*$`)

// difficultyInBits announces difficulty 4 and checks 4 leading zero bits,
// one hex zero: the difficulty read as bits, as another platform's proof
// of work counts it.
func difficultyInBits() http.Handler {
	return tamper{h: server.New(server.Options{Seed: 3, Difficulty: 1}), resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/tasks/play/accept") && *st/100 == 2 {
			m["difficulty"] = 4
		}
	}}
}

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
