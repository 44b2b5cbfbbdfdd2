package iyra_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	riyra "github.com/agentgames/conformance/reference/iyra"
)

// The eighth round of slipCases (broken_slips_test.go; docs/detection.md):
// fresh slips on statements no older round planted one on: the
// publication gate one past each of its two bounds, a verified score
// capped at the evidence target, an unverified broadcast reported as a
// draw, the withdrawal's reason code misspelled, the replay's actions
// newest first, the truth in the verified epilogue, a faction and a site
// named in capitals taken again, and a solution parsed into 64 bits.

// roundEightSlips are the eighth round's slips.
func roundEightSlips() []slip {
	return []slip{
		{"publication needs evidence above 4", "IYRA-ENDING-SUCCESS", rulesWith(func(r *riyra.Rules) { r.MinEvidence = 5 })},
		{"publication needs signal above 3", "IYRA-ENDING-SUCCESS", rulesWith(func(r *riyra.Rules) { r.MinSignal = 4 })},
		{"a verified ending's score capped at the evidence target", "IYRA-SCORE", atEnding(riyra.TruthReleased, func(m, _ map[string]any) {
			if s, _ := m["score"].(float64); s > 4 {
				m["score"] = float64(4)
			}
		})},
		{"an unverified broadcast reported as a draw", "IYRA-OUTCOME", atEnding(riyra.UnverifiedBroadcast, func(m, _ map[string]any) {
			m["outcome"] = "draw"
		})},
		{"a withdrawal's ending spelled withdrawal", "IYRA-REASON-CODES", atEnding(riyra.Withdrawn, func(_, o map[string]any) {
			o["ending"] = "withdrawal"
		})},
		{"the replay lists its actions newest first", "IYRA-REPLAY-FAITHFUL", func() http.Handler {
			return onPath(http.MethodGet, "/replay", func(m map[string]any) {
				a, _ := m["actions"].([]any)
				for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
					a[i], a[j] = a[j], a[i]
				}
			})
		}},
		{"a faction named in capitals recruited again as a new ally", "IYRA-ALLY-SET", capitalsRecruitAgain},
		{"a solution parsed into 64 bits, a larger one refused", "IYRA-PROOF-POW", solutionsIn64Bits},
		{"a site named in capitals inspected again", "IYRA-SITE-ONCE", capitalsInspectAgain},
		{"the verified epilogue names the truth it confirmed", "IYRA-VISIBILITY", atEnding(riyra.TruthReleased, func(m, o map[string]any) {
			if v, ok := riyra.DefaultPack().Variant(str(m["variant"])); ok {
				o["epilogue"] = str(o["epilogue"]) + " Confirmed: " + v.Truth
			}
		})},
	}
}

// roundEightNeighbours are the eighth round's faithful neighbours: a
// faction name taken whatever its case (a repeat in capitals refused as
// the repeat it is), and that repeat refused 409 (the status is left
// open).
func roundEightNeighbours() []neighbour {
	return []neighbour{
		{"faction names taken whatever their case", []string{"IYRA-ALLY-SET", "IYRA-ALLY-REPEAT", "IYRA-ALLY-SIGNAL"}, func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				if f, ok := allyFaction(r, body); ok && f != strings.ToLower(f) {
					return bytes.Replace(body, []byte(`"`+f+`"`), []byte(`"`+strings.ToLower(f)+`"`), 1)
				}
				return body
			}}
		}},
		{"a faction named in capitals refused 409 as a repeat", []string{"IYRA-ALLY-SET", "IYRA-ALLY-REPEAT", "IYRA-RECOVERY-READ"}, func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				if f, ok := allyFaction(r, body); ok && f != strings.ToLower(f) {
					r.Header.Set("X-Repeat", "1")
					return bytes.Replace(body, []byte(`"`+f+`"`), []byte(`"`+strings.ToLower(f)+`"`), 1)
				}
				return body
			}, resp: func(r *http.Request, st *int, _ map[string]any) {
				if r.Header.Get("X-Repeat") != "" && *st/100 == 4 {
					*st = http.StatusConflict
				}
			}}
		}},
	}
}

// solutionsIn64Bits refuses a canonical solution too large for an
// unsigned 64-bit integer, as a verifier parsing it with ParseUint before
// hashing its decimal string does.
func solutionsIn64Bits() http.Handler {
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/agents/verify") {
			return body
		}
		var in struct {
			Solution string `json:"solution"`
		}
		_ = json.Unmarshal(body, &in)
		if _, err := strconv.ParseUint(in.Solution, 10, 64); err != nil && strings.Trim(in.Solution, "0123456789") == "" && in.Solution != "" {
			r.Header.Set("X-Refuse", "1")
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Header.Get("X-Refuse") != "" {
			*st = http.StatusBadRequest
			replaceAll(m, map[string]any{"code": "invalid_solution", "message": "solution must be an unsigned 64-bit integer"})
		}
	}}
}

// allyFaction is the faction an ally action's body names, if it is one.
func allyFaction(r *http.Request, body []byte) (string, bool) {
	if !isActions(r) {
		return "", false
	}
	var in struct {
		Action struct {
			Type    string `json:"type"`
			Faction string `json:"faction"`
		} `json:"action"`
	}
	if json.Unmarshal(body, &in) != nil || in.Action.Type != riyra.TypeAlly {
		return "", false
	}
	return in.Action.Faction, true
}

// capitalsRecruitAgain validates a faction name folded to lower case but
// checks the repeat and stores the ally as submitted: "Drifters" after
// "drifters" is taken, a second entry and one more signal, answered as the
// next state (the stored session the reference keeps stays as it was).
func capitalsRecruitAgain() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		f, ok := allyFaction(r, body)
		before := map[string]any(nil)
		if ok && f != strings.ToLower(f) {
			before = readSession(inner, r)
		}
		o, _ := before["observation"].(map[string]any)
		if o == nil || !containsAny(asAnyList(o["allies"]), strings.ToLower(f)) {
			inner.ServeHTTP(w, r)
			return
		}
		o["allies"] = append(asAnyList(o["allies"]), f)
		o["signal"] = o["signal"].(float64) + 1
		before["revision"] = before["revision"].(float64) + 1
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rec).Encode(before)
		copyRecorded(w, rec)
	})
}

// capitalsInspectAgain is capitalsRecruitAgain's slip on sites: the site
// validated folded to lower case, the repeat checked as submitted, so
// "Archive" after "archive" applies the archive's effect a second time.
func capitalsInspectAgain() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var in struct {
			Action struct {
				Type string `json:"type"`
				Site string `json:"site"`
			} `json:"action"`
		}
		site := ""
		if isActions(r) && json.Unmarshal(body, &in) == nil && in.Action.Type == riyra.TypeInvestigate && in.Action.Site != strings.ToLower(in.Action.Site) {
			site = strings.ToLower(in.Action.Site)
		}
		effect, known := riyra.DefaultRules().Effects[riyra.Site(site)]
		before := map[string]any(nil)
		if known {
			before = readSession(inner, r)
		}
		o, _ := before["observation"].(map[string]any)
		if o == nil || o[site+"_checked"] != true {
			inner.ServeHTTP(w, r)
			return
		}
		o["evidence"] = o["evidence"].(float64) + float64(effect.Evidence)
		o["trust"] = o["trust"].(float64) + float64(effect.Trust)
		o["signal"] = o["signal"].(float64) + float64(effect.Signal)
		before["revision"] = before["revision"].(float64) + 1
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rec).Encode(before)
		copyRecorded(w, rec)
	})
}
