package iyra_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// The seventh round of slipCases (broken_slips_test.go; docs/detection.md):
// fresh slips on statements no older round planted one on: a proof with
// more zeroes than asked, the truth in a header and in the key's look-up,
// a repeated creation resetting its session, an alliance after the end,
// a version matched by its prefix, strategies in the default projection,
// a verified ending without an ally scoring nothing, the fallback path
// forgetting a finished session and a fact numbered by the order it was
// collected in.

// roundSevenSlips are the seventh round's slips.
func roundSevenSlips() []slip {
	return []slip{
		{"a digest with more zeroes than the difficulty refused", "IYRA-PROOF-POW", exactZeroes},
		{"the truth in a debug header of every session answer", "IYRA-VISIBILITY", truthInHeader},
		{"the key's look-up answers the stored session record, variant and all", "IYRA-VISIBILITY", lookUpCarriesRecord},
		{"a repeated creation resets its session", "IYRA-SESSION-KEY-IDEMPOTENT", repeatsReset},
		{"a finished session still takes an alliance", "IYRA-TERMINAL-REJECTS", alliesAfterTheEnd},
		{"accepted_version_id matched as a prefix of the assigned one", "IYRA-SESSION-VERSION", func() http.Handler {
			return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
				var in map[string]any
				if json.Unmarshal(body, &in) != nil || in == nil {
					return body
				}
				v := str(in["accepted_version_id"])
				if v != "" && len(v) < len(server.VersionID) && strings.HasPrefix(server.VersionID, v) {
					return setBodyField(r, body, "/sessions", "accepted_version_id", server.VersionID)
				}
				return body
			}}
		}},
		{"the default projection lists the learning strategies as tips", "IYRA-STORE-VERSION", strategiesAsTips},
		{"a verified ending without an ally scores nothing", "IYRA-SCORE", atEnding(riyra.TruthReleased, func(m, o map[string]any) {
			if len(asAnyList(o["allies"])) == 0 {
				m["score"] = 0
			}
		})},
		{"the fallback path forgets a finished session", "IYRA-RECOVERY-FALLBACK-PATH", fallbackForgetsFinished},
		{"a site's fact numbered by the order it was collected in", "IYRA-SITE-FACTS-FIXED", func() http.Handler {
			return observationOf(func(_, o map[string]any) {
				for i, src := range asAnyList(o["collected_sources"]) {
					field := str(src) + "_testimony"
					if str(src) == string(riyra.Spire) {
						field = "spire_fact"
					}
					if t := str(o[field]); t != "" {
						o[field] = fmt.Sprintf("Source %d: %s", i+1, t)
					}
				}
			})
		}},
	}
}

// exactZeroes refuses a verification whose digest has more leading zeroes
// than the difficulty: "starts with difficulty zeroes" read as exactly
// that many, the next hex digit compared with '0' too.
func exactZeroes() http.Handler {
	type issued struct {
		text       string
		difficulty int
	}
	var mu sync.Mutex
	challenges := map[string]issued{}
	return tamper{h: ref(), req: func(r *http.Request, body []byte) []byte {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/agents/verify") {
			return body
		}
		var in struct {
			ChallengeID string `json:"challenge_id"`
			Solution    string `json:"solution"`
		}
		_ = json.Unmarshal(body, &in)
		mu.Lock()
		c, ok := challenges[in.ChallengeID]
		mu.Unlock()
		sum := sha256.Sum256([]byte(c.text + in.Solution))
		if ok && strings.HasPrefix(hex.EncodeToString(sum[:]), strings.Repeat("0", c.difficulty+1)) {
			r.Header.Set("X-Refuse", "1")
		}
		return body
	}, resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/tasks/play/accept") && *st/100 == 2 {
			d, _ := m["difficulty"].(float64)
			mu.Lock()
			challenges[str(m["challenge_id"])] = issued{str(m["challenge"]), int(d)}
			mu.Unlock()
		}
		if r.Header.Get("X-Refuse") != "" {
			*st = http.StatusBadRequest
			replaceAll(m, map[string]any{"code": "invalid_proof", "message": "the digest must start with exactly difficulty zeroes"})
		}
	}}
}

// truthInHeader sends each session answer's variant truth in a debug
// header left on from development.
func truthInHeader() http.Handler {
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		var m map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &m) == nil && m["observation"] != nil {
			if v, ok := riyra.DefaultPack().Variant(str(m["variant"])); ok {
				rec.Header().Set("X-Iyra-Debug-Truth", v.Truth)
			}
		}
		copyRecorded(w, rec)
	})
}

// lookUpCarriesRecord answers a key's look-up with the session's stored
// record beside the reference's answer: its variant, truth and field
// notes included, as a serialised storage row would.
func lookUpCarriesRecord() http.Handler {
	inner := ref()
	return tamper{h: inner, resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/idempotency/status") || *st != http.StatusOK {
			return
		}
		read := httptest.NewRequest(http.MethodGet, server.BasePath+"/sessions/"+str(m["session_id"]), nil)
		read.Header.Set("Authorization", r.Header.Get("Authorization"))
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, read)
		var s map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &s) != nil {
			return
		}
		v, _ := riyra.DefaultPack().Variant(str(s["variant"]))
		m["session"] = map[string]any{"session_id": s["session_id"], "revision": s["revision"], "variant": v}
	}}
}

// repeatsReset answers a repeated creation with a fresh session under the
// original session_id, every later request to that id served by the fresh
// one: a creation written as an upsert, which resets the state it finds.
func repeatsReset() http.Handler {
	inner := ref()
	var mu sync.Mutex
	seen := map[string]bool{}
	alias := map[string]string{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		mu.Lock()
		for orig, fresh := range alias {
			r.URL.Path = strings.Replace(r.URL.Path, "/sessions/"+orig, "/sessions/"+fresh, 1)
		}
		mu.Unlock()
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && rec.Code/100 == 2 {
			rec = resetOnRepeat(inner, r, body, rec, &mu, seen, alias)
		}
		out := rec.Body.Bytes()
		mu.Lock()
		for orig, fresh := range alias {
			out = bytes.ReplaceAll(out, []byte(fresh), []byte(orig))
		}
		mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(out)
	})
}

// resetOnRepeat is repeatsReset's creation: the first use of a key passes;
// a repeat makes a fresh session with the same body under a key of its
// own and aliases the original id to it.
func resetOnRepeat(inner http.Handler, r *http.Request, body []byte, rec *httptest.ResponseRecorder, mu *sync.Mutex, seen map[string]bool, alias map[string]string) *httptest.ResponseRecorder {
	k := r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key")
	mu.Lock()
	again := seen[k]
	seen[k] = true
	n := len(alias)
	mu.Unlock()
	if !again {
		return rec
	}
	var orig struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &orig)
	fresh := httptest.NewRequest(http.MethodPost, r.URL.Path, bytes.NewReader(body))
	fresh.Header.Set("Authorization", r.Header.Get("Authorization"))
	fresh.Header.Set("Content-Type", "application/json")
	fresh.Header.Set("Idempotency-Key", fmt.Sprintf("%s-reset-%d", r.Header.Get("Idempotency-Key"), n))
	again2 := httptest.NewRecorder()
	inner.ServeHTTP(again2, fresh)
	var made struct {
		SessionID string `json:"session_id"`
	}
	if again2.Code/100 != 2 || json.Unmarshal(again2.Body.Bytes(), &made) != nil || orig.SessionID == "" {
		return rec
	}
	mu.Lock()
	alias[orig.SessionID] = made.SessionID
	mu.Unlock()
	return again2
}

// alliesAfterTheEnd answers an alliance sent to a finished session 200
// with the session unchanged: the terminal guard written in the sites',
// claims' and endings' handlers, not the factions'.
func alliesAfterTheEnd() http.Handler {
	inner := ref()
	return tamper{h: inner, req: func(r *http.Request, body []byte) []byte {
		if isActions(r) && actionType(body) == riyra.TypeAlly {
			if s := readSession(inner, r); s != nil && s["terminal"] == true {
				r.Header.Set("X-Again", "1")
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

// strategiesAsTips adds the learning layer's strategies to the default
// version projection as "tips": help written for every reader.
func strategiesAsTips() http.Handler {
	inner := ref()
	return tamper{h: inner, resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/versions/") || r.URL.Query().Has("include") || *st != http.StatusOK {
			return
		}
		if l, _ := learningLayer(inner, r.URL.Path)["learning"].(map[string]any); l != nil {
			m["tips"] = l["strategies"]
		}
	}}
}

// learningLayer reads path with include=learning from h.
func learningLayer(h http.Handler, path string) map[string]any {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"?include=learning", nil))
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return m
}

// fallbackForgetsFinished serves state_url at its own /state/ path and
// the contract's /sessions/{id} from the live sessions only, a finished
// one answered 404: a fallback route over the active games' table.
func fallbackForgetsFinished() http.Handler {
	inner := tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if u, ok := m["state_url"].(string); ok {
			m["state_url"] = strings.Replace(u, "/sessions/", "/state/", 1)
		}
	}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, server.BasePath+"/state/") {
			r.URL.Path = server.BasePath + "/sessions/" + strings.TrimPrefix(p, server.BasePath+"/state/")
			inner.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet || !strings.HasPrefix(p, server.BasePath+"/sessions/") || strings.Count(p, "/") != 4 {
			inner.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		var m map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &m) == nil && m["terminal"] == true {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"code":"session_not_found","message":"no active session with this id"}`))
			return
		}
		copyRecorded(w, rec)
	})
}

// roundSevenNeighbours are the seventh round's faithful readings: the
// default projection repeating the contract's first-move example at its
// top level (the rules projection "preserves ... optional first-move
// example"; only strategies and commentary are opt-in), and a key's
// look-up answering the session's public state beside its id (public
// data, and the look-up still names the session).
func roundSevenNeighbours() []neighbour {
	return []neighbour{
		{"the default projection repeats the first-move example at its top level", []string{"IYRA-STORE-VERSION"}, func() http.Handler {
			return onPath(http.MethodGet, "/versions/", func(m map[string]any) {
				if l, _ := at(m, "gameplay_contract", "learning").(map[string]any); l != nil {
					m["first_move"], m["invalid_action_examples"] = l["first_move"], l["invalid_action_examples"]
				}
			})
		}},
		{"the key's look-up answers the session's public state too", []string{"IYRA-VISIBILITY", "IYRA-IDEMPOTENCY-STATUS"}, func() http.Handler {
			inner := ref()
			return tamper{h: inner, resp: func(r *http.Request, st *int, m map[string]any) {
				if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/idempotency/status") || *st != http.StatusOK {
					return
				}
				read := httptest.NewRequest(http.MethodGet, server.BasePath+"/sessions/"+str(m["session_id"]), nil)
				read.Header.Set("Authorization", r.Header.Get("Authorization"))
				rec := httptest.NewRecorder()
				inner.ServeHTTP(rec, read)
				var s map[string]any
				if json.Unmarshal(rec.Body.Bytes(), &s) == nil {
					m["session"] = map[string]any{"revision": s["revision"], "status": s["status"], "observation": s["observation"]}
				}
			}}
		}},
	}
}

// at walks a path of object keys, nil where one is missing.
func at(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[k]
	}
	return cur
}
