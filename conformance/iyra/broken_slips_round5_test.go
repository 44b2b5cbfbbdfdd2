package iyra_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"

	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// The fifth round of slipCases (broken_slips_test.go; docs/detection.md):
// fresh slips, none in the older tables, in inputs and states no round
// had tried: a claim selection's chapter, a revision inside the action,
// a change at exactly its cost, a budget ending's score, a key in a
// response header, a fact bound to the session, testimony taken for a
// record, a finished status of another spelling, a faction's hidden
// trust, a withdrawal after a broadcast, a starting trust, a replay's
// version.

// roundFiveSlips are the fifth round's slips.
func roundFiveSlips() []slip {
	return []slip{
		{"a claim selection's answer leaves the chapter at inquiry", "IYRA-CHAPTER-LATEST", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				if isActions(r) {
					r.Header.Set("X-Type", actionType(body))
				}
				return body
			}, resp: func(r *http.Request, st *int, m map[string]any) {
				if o, _ := m["observation"].(map[string]any); o != nil && *st/100 == 2 && r.Header.Get("X-Type") == riyra.TypeSelectClaim {
					o["chapter"] = riyra.ChapterInquiry
				}
			}}
		}},
		{"a revision inside the action taken", "IYRA-ACTION-REVISION-PLACEMENT", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if !isActions(r) || json.Unmarshal(body, &m) != nil || m == nil {
					return body
				}
				if a, _ := m["action"].(map[string]any); a != nil && a["revision"] != nil && m["revision"] == nil {
					m["revision"] = a["revision"]
					delete(a, "revision")
					out, _ := json.Marshal(m)
					return out
				}
				return body
			}}
		}},
		{"a claim change with exactly its one evidence refused", "IYRA-CLAIM-CHANGE", changeAtCostRefused},
		{"a spent budget scores the evidence gathered", "IYRA-SCORE-UNVERIFIED", atEnding(riyra.BudgetExhausted, func(m, o map[string]any) {
			m["score"] = o["evidence"]
		})},
		{"the session's answers carry the api_key in a response header", "IYRA-KEY-ONCE", func() http.Handler {
			inner := ref()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.URL.Path, "/sessions") {
					w.Header().Set("X-Agent-Key", strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
				}
				inner.ServeHTTP(w, r)
			})
		}},
		{"a site's fact names the session it was read in", "IYRA-SITE-FACTS-FIXED", func() http.Handler {
			return observationOf(func(m, o map[string]any) {
				for _, k := range []string{"archive_testimony", "harbor_testimony", "spire_fact"} {
					if v := str(o[k]); v != "" {
						o[k] = v + " (" + str(m["session_id"]) + ")"
					}
				}
			})
		}},
		{"the harbor's testimony corroborates in the spire's place", "IYRA-CLAIM-CORROBORATION", atEnding(riyra.UnverifiedBroadcast, func(m, o map[string]any) {
			ev, _ := o["evidence"].(float64)
			sg, _ := o["signal"].(float64)
			if o["archive_checked"] == true && o["harbor_checked"] == true && o["spire_checked"] != true && str(o["selected_claim"]) != "" && ev >= 4 && sg >= 3 {
				o["ending"], m["outcome"], m["score"] = riyra.TruthReleased, riyra.Success, ev
			}
		})},
		{"a finished session's status spelled completed", "IYRA-TERMINAL-SIGNALS", func() http.Handler {
			return rewrites{ref(), func(m map[string]any) {
				if m["terminal"] == true && m["status"] == riyra.StatusFinished {
					m["status"] = "completed"
				}
			}}
		}},
		{"the drifters bring one trust more", "IYRA-FACTION-PARITY", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if v, ok := o["trust"].(float64); ok && containsAny(asAnyList(o["allies"]), string(riyra.Drifters)) {
					o["trust"] = v + 1
				}
			})
		}},
		{"a broadcast session takes a withdrawal", "IYRA-TERMINAL-REJECTS", func() http.Handler {
			return takenAfter(riyra.TypeWithdraw, riyra.UnverifiedBroadcast)
		}},
		{"a session starts with one trust", "IYRA-OBSERVATION-FIELDS", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if v, ok := o["trust"].(float64); ok {
					o["trust"] = v + 1
				}
			})
		}},
		{"the replay names the latest hosted version", "IYRA-REPLAY-FAITHFUL", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if m["version_id"] == server.VersionID {
					m["version_id"] = server.RolloutVersionID
				}
			})
		}},
	}
}

// changeAtCostRefused refuses a claim change made with evidence exactly
// at the change's cost (a gate written evidence > cost), as the reference
// refuses a change it cannot pay for.
func changeAtCostRefused() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isActions(r) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var in struct {
				Action struct {
					Type  string `json:"type"`
					Claim string `json:"claim"`
				} `json:"action"`
			}
			if json.Unmarshal(body, &in) == nil && in.Action.Type == riyra.TypeSelectClaim {
				if s := readSession(inner, r); s != nil {
					o, _ := s["observation"].(map[string]any)
					if c := str(o["selected_claim"]); c != "" && c != in.Action.Claim && o["evidence"] == float64(1) {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusBadRequest)
						_, _ = w.Write([]byte(`{"code":"insufficient_evidence","message":"changing the claim needs more evidence"}`))
						return
					}
				}
			}
		}
		inner.ServeHTTP(w, r)
	})
}

// roundFiveNeighbours are the fifth round's faithful readings: allies
// listed in another order (a set: IYRA-ALLY-SET fixes no order), an
// accepted_version_id compared once trimmed of spaces (the seed fixes the
// version the agent sends, not how a server compares it, as round 2's
// case-insensitive comparison), and a version other than the assigned one
// refused 409 (the contract fixes a refusal, not its status).
func roundFiveNeighbours() []neighbour {
	return []neighbour{
		{"allies listed in reverse alphabetical order", []string{"IYRA-ALLY-SET", "IYRA-ALLY-SIGNAL", "IYRA-FACTION-PARITY"}, func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				if a := asAnyList(o["allies"]); len(a) > 1 {
					sort.Slice(a, func(i, j int) bool { return str(a[i]) > str(a[j]) })
					o["allies"] = a
				}
			})
		}},
		{"accepted_version_id trimmed before it is compared", []string{"IYRA-SESSION-VERSION"}, func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var m map[string]any
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") || json.Unmarshal(body, &m) != nil || m == nil {
					return body
				}
				if v, ok := m["accepted_version_id"].(string); ok {
					return setBodyField(r, body, "/sessions", "accepted_version_id", strings.TrimSpace(v))
				}
				return body
			}}
		}},
		{"another version refused 409", []string{"IYRA-SESSION-VERSION"}, func() http.Handler {
			return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
				if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && *st == http.StatusBadRequest && strings.Contains(str(m["code"]), "version") {
					*st = http.StatusConflict
				}
			}}
		}},
	}
}
