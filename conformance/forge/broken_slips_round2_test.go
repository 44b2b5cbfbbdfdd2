package forge_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The targets of the second round of slipCases and faithfulNeighbours
// (broken_slips_test.go; docs/detection.md): the tables stay there, their
// middleware lives here.

// bodied is the reference behind resp, which sees each request's body
// beside its answer.
func bodied(resp func(r *http.Request, body []byte, st *int, m map[string]any)) tamper {
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			r.Header.Set("X-Slip-Body", string(body))
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) { resp(r, []byte(r.Header.Get("X-Slip-Body")), st, m) }}
}

// onSubmit is the reference with its submissions served by serve, which
// may pass them on to h.
func onSubmit(serve func(h http.Handler, w http.ResponseWriter, r *http.Request)) http.Handler {
	h := ref(dsl.Dialect{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !is(r, http.MethodPost, "/submit") {
			h.ServeHTTP(w, r)
			return
		}
		serve(h, w, r)
	})
}

// renameAppliedAnyway refuses a rename to a taken nickname with 409 as
// the reference does, yet stores it: the self read shows the taken name.
func renameAppliedAnyway() http.Handler {
	var mu sync.Mutex
	names := map[string]string{}
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		auth := r.Header.Get("Authorization")
		var p struct{ Name string }
		switch {
		case is(r, http.MethodPatch, "/api/agent") && *st == 409 && json.Unmarshal(body, &p) == nil:
			names[auth] = p.Name
		case is(r, http.MethodPatch, "/api/agent") && *st == 200:
			delete(names, auth)
		case is(r, http.MethodGet, "/api/agent") && names[auth] != "":
			m["name"] = names[auth]
		}
	})
}

// cached serves one endpoint's first answer again for a minute (per key
// when perKey): a read cache never invalidated by a write.
func cached(method, suffix string, perKey bool) http.Handler {
	type entry struct {
		at     time.Time
		status int
		body   map[string]any
	}
	var mu sync.Mutex
	seen := map[string]entry{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		if !is(r, method, suffix) || *st != 200 {
			return
		}
		k := ""
		if perKey {
			k = r.Header.Get("Authorization")
		}
		mu.Lock()
		defer mu.Unlock()
		if e, ok := seen[k]; ok && time.Since(e.at) < time.Minute {
			for f := range m {
				delete(m, f)
			}
			raw, _ := json.Marshal(e.body)
			_ = json.Unmarshal(raw, &m)
			return
		}
		raw, _ := json.Marshal(m)
		var c map[string]any
		_ = json.Unmarshal(raw, &c)
		seen[k] = entry{time.Now(), *st, c}
	}}
}

// racingSubmissions judges a session's submission arriving while another
// of the same session is being judged as that one was: a check of "already
// submitted" made before the judgement is stored, without a lock.
func racingSubmissions() http.Handler {
	type flight struct {
		done   chan struct{}
		status int
		body   []byte
		hdr    http.Header
	}
	var mu sync.Mutex
	inFlight := map[string]*flight{}
	return onSubmit(func(h http.Handler, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		f, racing := inFlight[r.URL.Path]
		if !racing {
			f = &flight{done: make(chan struct{})}
			inFlight[r.URL.Path] = f
		}
		mu.Unlock()
		if !racing {
			time.Sleep(100 * time.Millisecond) // the judgement takes a while
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			f.status, f.body, f.hdr = rec.Code, rec.Body.Bytes(), rec.Header()
			mu.Lock()
			delete(inFlight, r.URL.Path)
			mu.Unlock()
			close(f.done)
		} else {
			<-f.done
		}
		for k, v := range f.hdr {
			w.Header()[k] = v
		}
		w.WriteHeader(f.status)
		_, _ = w.Write(f.body)
	})
}

// keysOnTheBoard shows each solver's apiKey as the id of its leaderboard
// row: the key used as the agent's identity.
func keysOnTheBoard() http.Handler {
	var mu sync.Mutex
	keys := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if k, ok := m["apiKey"].(string); ok && is(r, http.MethodPost, "/api/agents") {
			if a, ok := m["agent"].(map[string]any); ok {
				keys[a["name"].(string)] = k
			} else if n, ok := m["name"].(string); ok {
				keys[n] = k
			}
		}
		if n, ok := m["name"].(string); ok && is(r, http.MethodPatch, "/api/agent") {
			keys[n] = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		if s, ok := m["solvers"].([]any); ok && is(r, http.MethodGet, "/api/leaderboards") {
			for _, row := range s {
				if o, ok := row.(map[string]any); ok && keys[o["name"].(string)] != "" {
					o["id"] = keys[o["name"].(string)]
				}
			}
		}
	}}
}

// renamesFreeForRegistration registers a nickname some agent took by a
// rename: the registration's uniqueness index is filled by registrations
// only.
func renamesFreeForRegistration() http.Handler {
	var mu sync.Mutex
	renamed := map[string]bool{}
	n := 0
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		var p struct{ Name string }
		_ = json.Unmarshal(body, &p)
		switch {
		case is(r, http.MethodPatch, "/api/agent") && *st == 200:
			renamed[p.Name] = true
		case is(r, http.MethodPost, "/api/agents") && *st == 409 && renamed[p.Name]:
			n++
			for f := range m {
				delete(m, f)
			}
			*st = 201
			m["agentId"], m["name"], m["apiKey"] = "agt_slip"+strconv.Itoa(n), p.Name, "forge_slip"+strconv.Itoa(n)
		}
	})
}

// keyed answers 401 on one public path when no Bearer key comes with it.
func keyed(suffix string) http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		return 401, map[string]any{"error": map[string]any{"code": "UNAUTHORIZED", "message": "a Bearer key is required"}},
			strings.HasSuffix(r.URL.Path, suffix) && r.Header.Get("Authorization") == ""
	}}
}

// lockedLoser serializes a session's submissions: one arriving while
// another of the same session is judged is answered 423 LOCKED.
func lockedLoser() http.Handler {
	var mu sync.Mutex
	busy := map[string]bool{}
	return onSubmit(func(h http.Handler, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		locked := busy[r.URL.Path]
		busy[r.URL.Path] = true
		mu.Unlock()
		if locked {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusLocked)
			_, _ = w.Write([]byte(`{"error":{"code":"SUBMISSION_IN_PROGRESS","message":"try later"}}`))
			return
		}
		time.Sleep(100 * time.Millisecond)
		h.ServeHTTP(w, r)
		mu.Lock()
		delete(busy, r.URL.Path)
		mu.Unlock()
	})
}

// oldNamesReserved keeps a renamed agent's former nickname taken: a
// registration under it is refused 409 NICKNAME_TAKEN.
func oldNamesReserved() http.Handler {
	var mu sync.Mutex
	old := map[string]bool{}
	current := map[string]string{} // Authorization -> nickname
	t := bodied(func(r *http.Request, _ []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		n, _ := m["name"].(string)
		switch {
		case is(r, http.MethodGet, "/api/agent") && *st == 200:
			current[r.Header.Get("Authorization")] = n
		case is(r, http.MethodPatch, "/api/agent") && *st == 200:
			if was := current[r.Header.Get("Authorization")]; was != "" && was != n {
				old[was] = true
			}
			current[r.Header.Get("Authorization")] = n
		case is(r, http.MethodPost, "/api/agents") && *st == 201:
			if k, ok := m["apiKey"].(string); ok {
				current["Bearer "+k] = n
			}
		}
	})
	t.skip = func(r *http.Request, body []byte) (int, any, bool) {
		var p struct{ Name string }
		mu.Lock()
		defer mu.Unlock()
		taken := is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &p) == nil && old[p.Name]
		return 409, map[string]any{"error": map[string]any{"code": "NICKNAME_TAKEN", "message": "reserved"}}, taken
	}
	return t
}
