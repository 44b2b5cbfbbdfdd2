package forge_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// boundaryCases break one rule each that a neighbouring rule used to catch
// first: every one of them leaves that neighbour intact.
func boundaryCases() []brokenCase {
	return []brokenCase{
		{"FORGE-KEY-UNRECOVERABLE", keyRecovery, false},
		{"FORGE-KEY-UNRECOVERABLE", reRegistrationRecovers, false},
		{"FORGE-BEARER", keyHeaderOnly, false},
		{"FORGE-CHAIN-LINEAR", perAgentOrder, false},
		{"FORGE-NO-DIFFICULTY-TIERS", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if l, ok := m["currentLevel"].(map[string]any); ok {
					l["tier"] = "bronze"
				}
			})
		}, false},
		{"FORGE-NO-LEVEL-SELECTION", honoursPositionQuery, false},
		{"FORGE-SESSION-PUBLIC-VIEW", func() http.Handler {
			return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
				if l, ok := m["currentLevel"].(map[string]any); ok {
					if p, _ := l["position"].(float64); p > 1 {
						t, rules := seedLevel(int(p) - 1)
						m["previousLevel"] = map[string]any{"position": p - 1, "title": t, "rules": rules}
					}
				}
			})
		}, false},
		{"FORGE-LEGACY-DIFFICULTY-SCHEMA", func() http.Handler {
			return answers(http.MethodGet, "/spec/puzzle.schema.json", func(_ *int, m map[string]any) {
				req, _ := m["required"].([]any)
				m["required"] = append(req, "difficulty")
			})
		}, false},
		{"FORGE-SERVER-POSITION", honoursPosition, true},
		{"FORGE-PUBLISHED-IMMUTABLE", marksSolvedLevels, false},
	}
}

// keyRecovery serves a key-recovery read, listed in its API description,
// that hands an agent its key back; no other answer carries it.
func keyRecovery() http.Handler {
	return tamper{h: ref(dsl.Dialect{}),
		skip: func(r *http.Request, _ []byte) (int, any, bool) {
			key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			return 200, map[string]any{"apiKey": key}, is(r, http.MethodGet, "/api/agent/credentials")
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if paths, ok := m["paths"].(map[string]any); ok && is(r, http.MethodGet, "/openapi.json") {
				paths["/api/agent/credentials"] = map[string]any{"get": map[string]any{"summary": "Recover the practice key",
					"responses": map[string]any{"200": map[string]any{"description": "the key"}}}}
			}
		}}
}

// reRegistrationRecovers answers a registration of a taken nickname with
// the agent that holds it, key included: a lost key is recovered by
// registering again.
func reRegistrationRecovers() http.Handler {
	var mu sync.Mutex
	keys := map[string]string{} // nickname -> key
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var reg struct{ Name string }
			if is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &reg) == nil {
				r.Header.Set("X-Nickname", reg.Name)
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			if !is(r, http.MethodPost, "/api/agents") {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			name := r.Header.Get("X-Nickname")
			if k, ok := m["apiKey"].(string); ok {
				keys[name] = k
				return
			}
			if k, ok := keys[name]; ok {
				*st = 200
				delete(m, "error")
				m["name"], m["apiKey"] = name, k
			}
		}}
}

// keyHeaderOnly takes the key from X-Api-Key and ignores Authorization:
// calls without a key or with a wrong one are still refused.
func keyHeaderOnly() http.Handler {
	inner := ref(dsl.Dialect{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Authorization")
		if k := r.Header.Get("X-Api-Key"); k != "" {
			r.Header.Set("Authorization", "Bearer "+k)
		}
		inner.ServeHTTP(w, r)
	})
}

// seedView is the public view of a seed position, as the reference shows it.
func seedView(position int) map[string]any {
	raw, _ := forge.SeedPackages()
	if position < 1 || position > len(raw) {
		return nil
	}
	var p struct {
		ID     string         `json:"id"`
		Public map[string]any `json:"public"`
	}
	_ = json.Unmarshal(raw[position-1], &p)
	v := map[string]any{"position": position, "levelId": p.ID}
	for k, x := range p.Public {
		v[k] = x
	}
	return v
}

// honoursPositionQuery serves a session on the level its query string
// names, while the body stays the exact {}.
func honoursPositionQuery() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		n, err := strconv.Atoi(r.URL.Query().Get("position"))
		if err != nil || !is(r, http.MethodPost, "/api/sessions") || m["sessionId"] == nil {
			return
		}
		if v := seedView(n); v != nil {
			m["position"], m["level"] = n, v
		}
	}}
}

// honoursLevelID serves a session on the level after the current one when
// the body names a level: the levelId is read, not refused or ignored.
func honoursLevelID() http.Handler {
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			if is(r, http.MethodPost, "/api/sessions") && strings.Contains(string(body), "levelId") {
				r.Header.Set("X-Named-Level", "1")
				return []byte(`{}`)
			}
			return body
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			p, ok := m["position"].(float64)
			if r.Header.Get("X-Named-Level") == "" || !ok {
				return
			}
			if v := seedView(int(p) + 1); v != nil {
				m["position"], m["level"] = p+1, v
			}
		}}
}

// viewsOf calls edit on every level view an answer carries: progress's
// current level, a session's level and a submission's progress.
func viewsOf(m map[string]any, edit func(v map[string]any)) {
	if l, ok := m["currentLevel"].(map[string]any); ok {
		edit(l)
	}
	if l, ok := m["level"].(map[string]any); ok {
		edit(l)
	}
	if p, ok := m["progress"].(map[string]any); ok {
		viewsOf(p, edit)
	}
}

// perAgentOrder gives every second agent its own chain: positions 1 and 2
// swapped (titles, rules and ids; the examples stay, so it can still play).
func perAgentOrder() http.Handler {
	var mu sync.Mutex
	second := map[string]bool{} // Authorization -> an even-numbered agent
	n := 0
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if k, ok := m["apiKey"].(string); ok && is(r, http.MethodPost, "/api/agents") {
			n++
			second["Bearer "+k] = n%2 == 0
			return
		}
		if !second[r.Header.Get("Authorization")] {
			return
		}
		viewsOf(m, func(v map[string]any) {
			p, _ := v["position"].(float64)
			if p != 1 && p != 2 {
				return
			}
			other := seedView(3 - int(p))
			for _, k := range []string{"title", "rules", "levelId"} {
				v[k] = other[k]
			}
		})
	}}
}

// marksSolvedLevels retitles a level once somebody has solved it: a
// published level changes.
func marksSolvedLevels() http.Handler {
	var mu sync.Mutex
	positions := map[string]float64{} // session id -> position
	solved := map[float64]bool{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if id, ok := m["sessionId"].(string); ok && is(r, http.MethodPost, "/api/sessions") {
			positions[id], _ = m["position"].(float64)
		}
		if c, _ := m["correct"].(bool); c && is(r, http.MethodPost, "/submit") {
			parts := strings.Split(r.URL.Path, "/")
			solved[positions[parts[len(parts)-2]]] = true
		}
		viewsOf(m, func(v map[string]any) {
			if p, _ := v["position"].(float64); solved[p] {
				v["title"] = v["title"].(string) + " (solved)"
			}
		})
	}}
}

// honoursPosition publishes a package at the position it names: the
// reference appends it, and the publication claims the named position.
func honoursPosition() http.Handler {
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var p map[string]any
			if !is(r, http.MethodPost, "/api/levels") || json.Unmarshal(body, &p) != nil || p["position"] == nil {
				return body
			}
			r.Header.Set("X-Named-Position", strconv.Itoa(int(p["position"].(float64))))
			delete(p, "position")
			out, _ := json.Marshal(p)
			return out
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			named, err := strconv.Atoi(r.Header.Get("X-Named-Position"))
			if pub, ok := m["publication"].(map[string]any); ok && err == nil {
				pub["position"] = named
			}
		}}
}
