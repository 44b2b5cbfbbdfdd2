package forge_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The targets of the sixth round of slipCases and faithfulNeighbours
// (broken_slips_test.go; docs/detection.md): the tables stay there, the
// middleware lives here. The four DSL slips are dsl.Dialect flags.

// queryLimitBare answers the stopped reference's 429s on the query route
// without Retry-After: the oracle's handler has a limiter of its own that
// forgets the header (FORGE-RATE-LIMIT).
func queryLimitBare() http.Handler {
	return tamper{h: stoppedRef(), hdr: func(r *http.Request, h http.Header) {
		if is(r, http.MethodPost, "/query") {
			h.Del("Retry-After")
		}
	}}
}

// anyScheme takes the key as the Authorization header's last word, under
// whatever scheme, or none: "Token <key>" and a bare key open the agent's
// reads as "Bearer <key>" does (FORGE-AUTH-REQUIRED).
func anyScheme() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if f := strings.Fields(r.Header.Get("Authorization")); len(f) > 0 {
			r.Header.Set("Authorization", "Bearer "+f[len(f)-1])
		}
		return body
	}}
}

// keysWordOnly refuses an Idempotency-Key holding anything but letters,
// digits, '-' and '_': a validator written as [A-Za-z0-9_-]{8,128} where
// the contract allows every printable ASCII character
// (FORGE-IDEMPOTENCY-KEY-FORMAT).
func keysWordOnly() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		k := r.Header.Get("Idempotency-Key")
		odd := strings.IndexFunc(k, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')
		}) >= 0
		return 400, map[string]any{"error": map[string]any{"code": "INVALID_IDEMPOTENCY_KEY", "message": "letters, digits, - and _ only"}},
			is(r, http.MethodPost, "/api/levels") && odd && forge.ValidKey(k)
	}}
}

// probesAsText compares a probe with the challenge inputs by their JSON
// text: the stored challenge is compact, so the same input written with
// spaces is no challenge input and the oracle answers it
// (FORGE-PROBE-DISTINCT).
func probesAsText() http.Handler {
	j := &judge{sessions: map[string]sessionSeen{}}
	return tamper{h: ref(dsl.Dialect{}),
		skip: func(r *http.Request, body []byte) (int, any, bool) {
			var q struct{ Input json.RawMessage }
			var in []int64
			if !is(r, http.MethodPost, "/query") || json.Unmarshal(body, &q) != nil || json.Unmarshal(q.Input, &in) != nil {
				return 0, nil, false
			}
			out, ok := j.outputFor(r, in)
			compact, _ := json.Marshal(in)
			return 200, map[string]any{"output": out}, ok && !bytes.Equal(q.Input, compact)
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if is(r, http.MethodPost, "/api/sessions") {
				j.see(m)
			}
		}}
}

// outputFor is the seed oracle's output for in when in is one of the
// query's session's challenge inputs.
func (j *judge) outputFor(r *http.Request, in []int64) (any, bool) {
	right, ok := j.rightForSession(r)
	j.mu.Lock()
	s := j.sessions[strings.Split(r.URL.Path, "/")[len(strings.Split(r.URL.Path, "/"))-2]]
	j.mu.Unlock()
	for i, c := range s.challenges {
		if ok && i < len(right) && slices.Equal(c, in) {
			return right[i], true
		}
	}
	return nil, false
}

// paddedNamesTrimmed checks a nickname's uniqueness as sent and stores it
// trimmed: " name " is free, so a taken name with spaces round it
// registers a second agent under it (FORGE-NICKNAME-UNIQUE).
func paddedNamesTrimmed() http.Handler {
	var mu sync.Mutex
	padded := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var reg struct{ Name string }
			if is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &reg) == nil && strings.TrimSpace(reg.Name) != reg.Name {
				mu.Lock()
				padded[reg.Name] = strings.TrimSpace(reg.Name)
				mu.Unlock()
			}
			return body
		},
		resp: func(_ *http.Request, _ *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			renameAll(m, padded)
		}}
}

// renameAll replaces, anywhere in v, a "name" string that names holds by
// its mapping.
func renameAll(v any, names map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "name" && names[s] != "" {
				v[k] = names[s]
			}
			renameAll(x, names)
		}
	case []any:
		for _, x := range v {
			renameAll(x, names)
		}
	}
}

// keysByNickname scopes an Idempotency-Key to the agent's nickname, not
// its key: the store's index is (name, key), so after a rename the retry
// of a publication is a new key and appends the level again
// (FORGE-IDEMPOTENT-REPLAY).
func keysByNickname() http.Handler {
	var mu sync.Mutex
	names := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			k := r.Header.Get("Idempotency-Key")
			if !is(r, http.MethodPost, "/api/levels") || !forge.ValidKey(k) {
				return body
			}
			mu.Lock()
			name := names[r.Header.Get("Authorization")]
			mu.Unlock()
			sum := sha256.Sum256([]byte(name + "\x00" + k))
			scoped := strings.Repeat(hex.EncodeToString(sum[:]), 2)
			r.Header.Set("Idempotency-Key", scoped[:max(len(k), 16)])
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			if name, ok := m["name"].(string); ok && *st/100 == 2 {
				switch {
				case is(r, http.MethodPost, "/api/agents"):
					if key, ok := m["apiKey"].(string); ok {
						names["Bearer "+key] = name
					}
				case is(r, http.MethodPatch, "/api/agent"):
					names[r.Header.Get("Authorization")] = name
				}
			}
		}}
}

// publicationEchoesHidden answers a publication with the package's hidden
// inputs as its tests: the stored level marshalled whole, its private part
// under another name (FORGE-PRIVATE-SERVER-ONLY).
func publicationEchoesHidden() http.Handler {
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		var pkg struct {
			Private struct {
				HiddenInputs any `json:"hiddenInputs"`
			} `json:"private"`
		}
		if p, ok := m["publication"].(map[string]any); ok && is(r, http.MethodPost, "/api/levels") && *st/100 == 2 && json.Unmarshal(body, &pkg) == nil {
			p["tests"] = pkg.Private.HiddenInputs
		}
	})
}

// activityTitled labels each row of the boards' levels activity with its
// level's title, a display name under a key no list forbids
// (FORGE-ACTIVITY-FORBIDDEN-FIELDS).
func activityTitled() http.Handler {
	return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
		for _, k := range []string{"levels", "firstSolves", "recentSolves"} {
			rows, _ := m[k].([]any)
			for _, row := range rows {
				if o, ok := row.(map[string]any); ok {
					if at, ok := o["position"].(float64); ok {
						if title, _ := seedLevel(int(at)); title != "" {
							o["label"] = title
						}
					}
				}
			}
		}
	})
}

// paddedNamesRefused refuses a nickname with spaces round it, 400
// NICKNAME_INVALID: a deployment may allow fewer names than the contract's
// 40 code points of anything, so long as a taken one is never given twice.
func paddedNamesRefused() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, body []byte) (int, any, bool) {
		var reg struct{ Name string }
		padded := is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &reg) == nil && strings.TrimSpace(reg.Name) != reg.Name
		return 400, map[string]any{"error": map[string]any{"code": "NICKNAME_INVALID", "message": "no spaces at either end"}}, padded
	}}
}

// replayNamesCurrentAuthor answers a replay with the original publication
// under the author's nickname as it is now: the level is bound to the
// agent, and its display name follows a rename, which the seed allows.
func replayNamesCurrentAuthor() http.Handler {
	var mu sync.Mutex
	names := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if name, ok := m["name"].(string); ok && *st/100 == 2 && is(r, http.MethodPatch, "/api/agent") {
			names[r.Header.Get("Authorization")] = name
		}
		p, ok := m["publication"].(map[string]any)
		if name := names[r.Header.Get("Authorization")]; ok && name != "" && *st == http.StatusOK && is(r, http.MethodPost, "/api/levels") {
			p["author"] = name
		}
	}}
}
