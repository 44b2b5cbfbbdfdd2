package iyra_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode"

	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// The third round of slipCases (broken_slips_test.go; docs/detection.md):
// the table stays there; its rows, its neighbours and the stateless
// targets live here, the stateful targets in
// broken_slips_round3_targets_test.go.

// roundThreeSlips are the third round's fresh slips: a proof difficulty
// read in bits or one zero too strict, a key disclosed again, idempotency
// keys stored per server, a version checked against the catalogue, a
// revision defaulted, gates left out or read on the wrong resource,
// refusals in the replay, a score of gathered evidence, a budget spent by
// refusals, an epilogue at the budget's end, a catalogue trimmed by
// inspection, the truth in a refusal's message, one ally's consequence
// for two, a site revealing another's account, a replay field left out
// when false or unverified by a refusal, legal_actions left out once
// empty, a finished session's key forgotten, an epilogue drafted early,
// a scheme ignored on the session routes, key characters outside the
// class, and guards and readings tried in one state only (a revision
// ahead, a site again after another, the budget's ending, capped gauges,
// an untouched withdrawal).
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
		{"legal_actions drops the inspected sites", "IYRA-LEGAL-CATALOGUE", catalogueTrimmed(riyra.TypeInvestigate, "site", func(o map[string]any, v string) bool { return o[v+"_checked"] == true })},
		{"legal_actions drops the allied factions and the selected claim", "IYRA-LEGAL-CATALOGUE", catalogueTrimmed("", "", func(o map[string]any, v string) bool {
			return containsAny(asAnyList(o["allies"]), v) || o["selected_claim"] == v
		})},
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
		{"a faction recruited again after the other one", "IYRA-ALLY-REPEAT", rulesWith(func(r *riyra.Rules) { r.RecruitAfterAnother = true })},
		{"the same claim compared against the first selection", "IYRA-CLAIM-SAME", rulesWith(func(r *riyra.Rules) { r.SameAgainstFirst = true })},
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
		{"a claim selection drafts the epilogue", "IYRA-EPILOGUE", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if c := str(o["selected_claim"]); c != "" && o["ending"] == "" {
					o["epilogue"] = "Draft: the city may soon hear that " + c + " explains the gap."
				}
			})
		}},
		{"the session routes take any scheme before the key", "IYRA-AUTH-BEARER", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				if scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.Contains(r.URL.Path, "/sessions/") && !strings.EqualFold(scheme, "Bearer") {
					r.Header.Set("Authorization", "Bearer "+key)
				}
				return body
			}}
		}},
		{"an Idempotency-Key with '/' or '+' accepted", "IYRA-SESSION-KEY-REQUIRED", func() http.Handler {
			return keysEdited(func(k string) string { return strings.NewReplacer("/", "_", "+", "-").Replace(k) })
		}},
		{"an Idempotency-Key with non-ASCII letters accepted", "IYRA-SESSION-KEY-REQUIRED", func() http.Handler {
			return keysEdited(func(k string) string {
				return strings.Map(func(c rune) rune {
					if c > 127 && unicode.IsLetter(c) {
						return 'x'
					}
					return c
				}, k)
			})
		}},
		{"a broadcast run's replay reported a success", "IYRA-REPLAY-FAITHFUL", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if a := asAnyList(m["actions"]); len(a) > 0 {
					if last, _ := a[len(a)-1].(map[string]any); last != nil {
						if act, _ := last["action"].(map[string]any); act["type"] == riyra.TypeBroadcast {
							m["outcome"], m["ending"] = riyra.Success, riyra.TruthReleased
						}
					}
				}
			})
		}},
		{"investigating after a claim selection keeps the deliberation chapter", "IYRA-CHAPTER-INQUIRY", deliberationPinned},
		{"the learning layer lists each variant's truth", "IYRA-VISIBILITY", func() http.Handler {
			return onPath(http.MethodGet, "/versions/", func(m map[string]any) {
				if l, ok := m["learning"].(map[string]any); ok {
					solutions := map[string]any{}
					for _, v := range riyra.DefaultPack().Variants {
						solutions[v.ID] = v.Truth
					}
					l["worked_solutions"] = solutions
				}
			})
		}},
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

// catalogueTrimmed drops from legal_actions the parameter values done
// says are used up, for the entries of typ and parameter param ("" for
// every type and parameter): a catalogue of what can still be done, in
// place of the declared one.
func catalogueTrimmed(typ, param string, done func(o map[string]any, v string) bool) func() http.Handler {
	return func() http.Handler {
		return observationOf(func(m, o map[string]any) {
			for _, a := range asAnyList(m["legal_actions"]) {
				am, _ := a.(map[string]any)
				ps, _ := am["parameters"].(map[string]any)
				if typ != "" && am["type"] != typ {
					continue
				}
				for k, vs := range ps {
					if param != "" && k != param {
						continue
					}
					left := []any{}
					for _, v := range asAnyList(vs) {
						if !done(o, str(v)) {
							left = append(left, v)
						}
					}
					ps[k] = left
				}
			}
		})
	}
}
