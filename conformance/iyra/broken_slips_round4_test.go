package iyra_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	harness "github.com/agentgames/conformance/conformance/tamper"
	riyra "github.com/agentgames/conformance/reference/iyra"
)

// The fourth round of slipCases (broken_slips_test.go; docs/detection.md):
// fresh slips, none in the older tables, in states and answers no round
// had tried: a withdrawal's summary, the second alliance, the spire after
// the archive, a 429's body, a refusal's envelope, a withdrawal's
// revision, a flat action request, the spire's sources.

// roundFourSlips are the fourth round's slips the kit catches (the
// round's fifteenth, roundFourUnreached, no live run can reach).
func roundFourSlips() []slip {
	return []slip{
		{"a withdrawal reported as a failure", "IYRA-OUTCOME", atEnding(riyra.Withdrawn, func(m, _ map[string]any) {
			m["outcome"] = riyra.Failure
		})},
		{"a withdrawal scores the evidence gathered", "IYRA-SCORE-UNVERIFIED", atEnding(riyra.Withdrawn, func(m, o map[string]any) {
			m["score"] = o["evidence"]
		})},
		{"the second alliance gives no signal", "IYRA-ALLY-SIGNAL", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if v, ok := o["signal"].(float64); ok && len(asAnyList(o["allies"])) > 1 {
					o["signal"] = v - 1
				}
			})
		}},
		{"the spire gives one signal once the archive is checked", "IYRA-SITE-EFFECTS", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if v, ok := o["signal"].(float64); ok && o["archive_checked"] == true && o["spire_checked"] == true {
					o["signal"] = v - 1
				}
			})
		}},
		{"a refused action's envelope echoes the request's credentials", "IYRA-KEY-ONCE", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if isActions(r) && *st/100 == 4 {
					m["request"] = map[string]any{"authorization": r.Header.Get("Authorization")}
				}
			}}
		}},
		{"a withdrawal leaves the chapter where it was", "IYRA-CHAPTER-LATEST", atEnding(riyra.Withdrawn, func(_, o map[string]any) {
			o["chapter"] = riyra.ChapterInquiry
		})},
		{"a withdrawn session's replay unverified", "IYRA-REPLAY", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if i, ok := m["integrity"].(map[string]any); ok && m["ending"] == riyra.Withdrawn {
					i["verified"] = false
				}
			})
		}},
		{"a finished session leaves out collected_sources when empty (omitempty)", "IYRA-TERMINAL-SUMMARY", func() http.Handler {
			return rewrites{ref(), func(m map[string]any) {
				o, _ := m["observation"].(map[string]any)
				if m["terminal"] != true || o == nil || len(asAnyList(o["collected_sources"])) > 0 {
					return
				}
				delete(m, "collected_sources")
				delete(o, "collected_sources")
			}}
		}},
		{"an accepted action's answer leaves out replay_url", "IYRA-SESSION-SHAPE", func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if isActions(r) && *st/100 == 2 && m["terminal"] != true {
					delete(m, "replay_url")
				}
			}}
		}},
		{"a stale revision taken for a withdrawal", "IYRA-REVISION-STALE", func() http.Handler {
			inner := ref()
			return tamper{h: inner, req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if !isActions(r) || json.Unmarshal(body, &m) != nil || m == nil {
					return body
				}
				if a, _ := m["action"].(map[string]any); a["type"] == riyra.TypeWithdraw {
					if s := readSession(inner, r); s != nil {
						return setBodyField(r, body, "/actions", "revision", s["revision"])
					}
				}
				return body
			}}
		}},
		{"a flat action request taken as its action", "IYRA-ACTION-TYPE-REQUIRED", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if !isActions(r) || json.Unmarshal(body, &m) != nil || m == nil {
					return body
				}
				if _, ok := m["action"]; !ok && m["type"] != nil {
					act := map[string]any{}
					for k, v := range m {
						if k != "revision" {
							act[k] = v
						}
					}
					out, _ := json.Marshal(map[string]any{"revision": m["revision"], "action": act})
					return out
				}
				return body
			}}
		}},
		{"the spire's inspection adds two collected sources", "IYRA-SITE-REVEAL", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if o["spire_checked"] == true {
					o["collected_sources"] = append(asAnyList(o["collected_sources"]), "spire_echo_log")
				}
			})
		}},
		{"a withdrawn session takes another withdrawal", "IYRA-TERMINAL-REJECTS", withdrawalsRepeated},
		{"the look-up of an unknown key names the agent's latest session", "IYRA-IDEMPOTENCY-STATUS", latestForUnknownKeys},
	}
}

// withdrawalsRepeated answers a withdrawal of a session already withdrawn
// 200 with the session unchanged: a withdrawal made idempotent.
func withdrawalsRepeated() http.Handler { return takenAfter(riyra.TypeWithdraw, riyra.Withdrawn) }

// takenAfter answers an action of type typ sent to a session that ended
// ending 200 with the session unchanged: a finishing action made
// idempotent, or the terminal guard written for another ending only.
func takenAfter(typ, ending string) http.Handler {
	inner := ref()
	return tamper{h: inner, req: func(r *http.Request, body []byte) []byte {
		if isActions(r) && actionType(body) == typ {
			if s := readSession(inner, r); s != nil {
				if o, _ := s["observation"].(map[string]any); o["ending"] == ending {
					r.Header.Set("X-Again", "1")
				}
			}
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Header.Get("X-Again") == "" {
			return
		}
		if s := readSession(inner, r); s != nil {
			*st = http.StatusOK
			replaceAll(m, s)
		}
	}}
}

// actionType is the action type an action request body names, "" when
// it names none.
func actionType(body []byte) string {
	var in struct {
		Action struct {
			Type string `json:"type"`
		} `json:"action"`
	}
	if json.Unmarshal(body, &in) != nil {
		return ""
	}
	return in.Action.Type
}

// latestForUnknownKeys answers a look-up of a key that names no session
// with the last session the agent created: a look-up falling back to the
// agent's latest.
func latestForUnknownKeys() http.Handler {
	var mu sync.Mutex
	latest := map[string]any{}
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		auth := r.Header.Get("Authorization")
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && *st/100 == 2 && m["session_id"] != nil {
			latest[auth] = m["session_id"]
		}
		if strings.HasSuffix(r.URL.Path, "/idempotency/status") && str(m["session_id"]) == "" && latest[auth] != nil {
			*st = http.StatusOK
			replaceAll(m, map[string]any{"session_id": latest[auth], "status": "created"})
		}
	}}
}

// roundFourUnreached is the round's slip no live run reaches: the only 429
// the kit provokes is a spent session quota, and only the embedded
// reference can spend one (the quota is 100000 sessions a day), so
// IYRA-RATE-LIMIT is unchecked against a --target. Kept as a row and run
// by TestUnreachedSlipsAreStillUnreached, which fails once it is caught.
func roundFourUnreached() []slip {
	return []slip{
		{"a 429 tells its wait in the Retry-After header only", "IYRA-RATE-LIMIT", func() http.Handler {
			return tamper{h: ref(), resp: func(_ *http.Request, st *int, m map[string]any) {
				if *st == http.StatusTooManyRequests {
					delete(m, "retry_after_seconds")
					delete(m, "retry_at")
				}
			}}
		}},
	}
}

// roundFourNeighbours are the fourth round's faithful readings: a flat
// action body refused 422 (the contract fixes a 4xx refusal, not its
// status: IYRA-STATUS-CODES is the kit's choice), and a finished
// session's collected_sources at the top level only (IYRA-TERMINAL-SUMMARY
// allows the top level or the observation).
func roundFourNeighbours() []neighbour {
	return []neighbour{
		{"a flat action body refused 422", []string{"IYRA-ACTION-TYPE-REQUIRED"}, func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if isActions(r) && *st/100 == 4 {
					*st = http.StatusUnprocessableEntity
				}
			}}
		}},
		{"a finished session's collected_sources at the top level only", []string{"IYRA-TERMINAL-SUMMARY"}, func() http.Handler {
			return rewrites{ref(), func(m map[string]any) {
				if o, ok := m["observation"].(map[string]any); ok && m["terminal"] == true {
					if v, ok := o["collected_sources"]; ok {
						m["collected_sources"] = v
						delete(o, "collected_sources")
					}
				}
			}}
		}},
	}
}

// TestUnreachedSlipsAreStillUnreached keeps the slips no live run reaches
// yet honest: each still escapes a live run of its rule, and the test
// fails the day one is caught, so it moves into slipCases.
func TestUnreachedSlipsAreStillUnreached(t *testing.T) {
	t.Parallel()
	harness.Unreached(t, iyra.Protocol(), roundFourUnreached(), nil)
}
