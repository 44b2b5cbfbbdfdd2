package iyra_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// The sixth round of slipCases (broken_slips_test.go; docs/detection.md):
// fresh slips on statements no older round planted one on: the success
// gate's evidence after two claim changes, a broadcast gated like a
// success, the ninth action refused, the budget's reason code, a writing
// next step, the assigned step limit, the trust document's body and a
// first selection gated like a change.

// roundSixSlips are the sixth round's slips.
func roundSixSlips() []slip {
	return []slip{
		{"the success gate reads the evidence gathered, two changes' cost left out", "IYRA-ENDING-UNVERIFIED", atEnding(riyra.UnverifiedBroadcast, func(m, o map[string]any) {
			v, _ := riyra.DefaultPack().Variant(str(m["variant"]))
			sg, _ := o["signal"].(float64)
			if o["archive_checked"] == true && o["spire_checked"] == true && str(o["selected_claim"]) == string(v.Corroborates) && gathered(o) >= 4 && sg >= 3 {
				o["ending"], m["outcome"], m["score"] = riyra.TruthReleased, riyra.Success, o["evidence"]
			}
		})},
		{"a broadcast of a claim short of evidence refused", "IYRA-BROADCAST-ACCEPTED", func() http.Handler {
			return refusedWhen(riyra.TypeBroadcast, "insufficient_evidence", func(s, o map[string]any) bool {
				ev, _ := o["evidence"].(float64)
				return str(o["selected_claim"]) != "" && ev < 4
			})
		}},
		{"the ninth action refused as past the budget", "IYRA-BUDGET", func() http.Handler {
			return refusedWhen("", "budget_exhausted", func(s, _ map[string]any) bool {
				p, _ := s["progress"].(map[string]any)
				return p["steps_used"] == float64(8)
			})
		}},
		{"a spent budget ends budget_exceeded", "IYRA-REASON-CODES", atEnding(riyra.BudgetExhausted, func(_, o map[string]any) {
			o["ending"] = "budget_exceeded"
		})},
		{"the replay offers to play again with a POST", "IYRA-NEXT-STEPS-READ-ONLY", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if steps, ok := m["voluntary_next_steps"].([]any); ok {
					m["voluntary_next_steps"] = append(steps, map[string]any{"method": "POST", "path": server.BasePath + "/store/" + server.Slug + "/sessions", "description": "play again"})
				}
			})
		}},
		{"the assigned contract declares ten steps", "IYRA-LIMITS", func() http.Handler {
			return onPath(http.MethodGet, "/"+server.Slug+"/assignment", func(m map[string]any) {
				c, _ := m["gameplay_contract"].(map[string]any)
				if l, _ := c["limits"].(map[string]any); l != nil {
					l["max_steps"] = 10
				}
			})
		}},
		{"the trust document answers a JSON list", "IYRA-PUBLISHED-URLS", func() http.Handler {
			inner := ref()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/trust") {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`[{"operator":"reference"}]`))
					return
				}
				inner.ServeHTTP(w, r)
			})
		}},
		{"a first selection with nothing gathered refused", "IYRA-CLAIM-FIRST", func() http.Handler {
			return refusedWhen(riyra.TypeSelectClaim, "insufficient_evidence", func(_, o map[string]any) bool {
				return str(o["selected_claim"]) == "" && o["evidence"] == float64(0)
			})
		}},
	}
}

// refusedWhen answers 422 with code to each action of type typ ("" for
// any) whose session, read just before, when holds of (s the session
// answer, o its observation): a gate the contract does not have, nothing
// applied.
func refusedWhen(typ, code string, when func(s, o map[string]any) bool) http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isActions(r) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if typ == "" || actionType(body) == typ {
				if s := readSession(inner, r); s != nil {
					o, _ := s["observation"].(map[string]any)
					if o != nil && s["terminal"] != true && when(s, o) {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusUnprocessableEntity)
						out, _ := json.Marshal(map[string]any{"code": code, "message": "refused: " + code})
						_, _ = w.Write(out)
						return
					}
				}
			}
		}
		inner.ServeHTTP(w, r)
	})
}

// roundSixNeighbours are the sixth round's faithful readings: a replay
// that also offers a HEAD request (IYRA-NEXT-STEPS-READ-ONLY names GET
// and HEAD both read requests), and a trust document sent as text/plain
// whose body is a JSON object (IYRA-PUBLISHED-URLS fixes the body, not
// the media type it is labelled with).
func roundSixNeighbours() []neighbour {
	return []neighbour{
		{"the replay also offers a HEAD of the store entry", []string{"IYRA-NEXT-STEPS-READ-ONLY", "IYRA-REPLAY"}, func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				if steps, ok := m["voluntary_next_steps"].([]any); ok {
					m["voluntary_next_steps"] = append(steps, map[string]any{"method": "HEAD", "path": server.BasePath + "/store/" + server.Slug, "description": "check the store entry"})
				}
			})
		}},
		{"the trust document labelled text/plain", []string{"IYRA-PUBLISHED-URLS"}, func() http.Handler {
			inner := ref()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/trust") {
					rec := httptest.NewRecorder()
					inner.ServeHTTP(rec, r)
					rec.Header().Set("Content-Type", "text/plain; charset=utf-8")
					copyRecorded(w, rec)
					return
				}
				inner.ServeHTTP(w, r)
			})
		}},
	}
}
