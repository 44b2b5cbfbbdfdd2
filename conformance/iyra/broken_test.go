package iyra_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// withRules builds a reference server whose rules are changed by edit.
func withRules(edit func(*riyra.Rules)) http.Handler {
	r := riyra.DefaultRules()
	r.Effects = map[riyra.Site]riyra.Effect{}
	for k, v := range riyra.DefaultRules().Effects {
		r.Effects[k] = v
	}
	edit(&r)
	return server.New(server.Options{Seed: 3, Rules: &r})
}

// acceptsStale rewrites every action's revision to the session's current
// one before the reference sees it: a target that ignores revisions.
type acceptsStale struct{ h http.Handler }

func (s acceptsStale) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/actions") {
		s.h.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var env map[string]any
	if json.Unmarshal(body, &env) == nil && env != nil && env["revision"] != nil {
		read := httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/actions"), nil)
		read.Header.Set("Authorization", r.Header.Get("Authorization"))
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, read)
		var state map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &state) == nil {
			env["revision"] = state["revision"]
			body, _ = json.Marshal(env)
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	s.h.ServeHTTP(w, r)
}

// rewrites passes each JSON object answer through edit.
type rewrites struct {
	h    http.Handler
	edit func(m map[string]any)
}

func (s rewrites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	harness.Responses(s.h, func(_ *http.Request, _ *int, m map[string]any) { s.edit(m) }).ServeHTTP(w, r)
}

// tamper is a target that edits requests before the reference sees them
// and JSON object answers (and their status) before the runner does: the
// shared harness's middleware (conformance/tamper) in a struct.
type tamper struct {
	h    http.Handler
	req  harness.RequestEdit
	resp harness.ResponseEdit
}

func (s tamper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	harness.Wrap(s.h, s.req, s.resp).ServeHTTP(w, r)
}

// ref is an unmodified reference server.
func ref() http.Handler { return server.New(server.Options{Seed: 3}) }

// isActions reports whether r submits an action.
func isActions(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/actions")
}

// keyIgnoresRequest binds an Idempotency-Key to nothing: a key reused with
// another body silently becomes a new key, creating a second session.
func keyIgnoresRequest() http.Handler { return keyIgnoresRequestOn(ref()) }

// keyIgnoresRequestOn is keyIgnoresRequest in front of inner, judging the
// body and path the caller sent.
func keyIgnoresRequestOn(inner http.Handler) http.Handler {
	var mu sync.Mutex
	seen := map[string]string{}
	n := 0
	return tamper{h: inner, req: func(r *http.Request, body []byte) []byte {
		key := r.Header.Get("Idempotency-Key")
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sessions") || key == "" {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		fp := r.URL.Path + string(body)
		if prev, ok := seen[key]; ok && prev != fp {
			n++
			r.Header.Set("Idempotency-Key", fmt.Sprintf("%s-again-%d", key, n))
		} else if !ok {
			seen[key] = fp
		}
		return body
	}}
}

// replayLies reports every replay as a verified success with no actions.
func replayLies() http.Handler {
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/replay") && *st == http.StatusOK {
			m["outcome"], m["ending"], m["actions"] = "success", "truth_released", []any{}
		}
	}}
}

// keyInAssignment echoes the caller's api_key in the assignment.
func keyInAssignment() http.Handler {
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/assignment") && *st == http.StatusOK {
			m["api_key"] = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
	}}
}

// sessionsWithoutAuth serves every session URL to any caller, acting with
// the credential of whoever first used it.
func sessionsWithoutAuth() http.Handler {
	var mu sync.Mutex
	owner := map[string]string{}
	inner := ref()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, rest, ok := strings.Cut(r.URL.Path, "/sessions/"); ok {
			id, _, _ := strings.Cut(rest, "/")
			mu.Lock()
			if a := r.Header.Get("Authorization"); a != "" && owner[id] == "" {
				owner[id] = a
			}
			if a := owner[id]; a != "" {
				r.Header.Set("Authorization", a)
			}
			mu.Unlock()
		}
		inner.ServeHTTP(w, r)
	})
}

// weakerProof advertises difficulty 4 but checks only 3 zeroes.
func weakerProof() http.Handler {
	return tamper{h: server.New(server.Options{Seed: 3, Difficulty: 3}), resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/tasks/play/accept") && *st/100 == 2 {
			m["difficulty"] = 4
		}
	}}
}

// noFallbackPath serves state only at its own state_url, not at the
// contract's /sessions/{id}.
func noFallbackPath() http.Handler {
	inner := tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if u, ok := m["state_url"].(string); ok {
			m["state_url"] = strings.Replace(u, "/sessions/", "/state/", 1)
		}
	}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case strings.HasPrefix(p, server.BasePath+"/state/"):
			r.URL.Path = server.BasePath + "/sessions/" + strings.TrimPrefix(p, server.BasePath+"/state/")
		case r.Method == http.MethodGet && strings.HasPrefix(p, server.BasePath+"/sessions/") && strings.Count(p, "/") == 4:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"code":"not_found","message":"no such path"}`))
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// nextStepWrites offers a session-creating POST after a verified replay.
func nextStepWrites() http.Handler {
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/replay") && *st == http.StatusOK {
			m["voluntary_next_steps"] = []any{map[string]any{"method": "POST", "path": server.BasePath + "/store/helios-relay/sessions"}}
		}
	}}
}

// answerField sets a top-level field of every session answer when asks for it.
func answerField(name string, value any, when func(m map[string]any) bool) http.Handler {
	return tamper{h: ref(), resp: func(r *http.Request, st *int, m map[string]any) {
		if _, isSession := m["observation"]; isSession && when(m) {
			m[name] = value
		}
	}}
}

// leakTruth adds the variant's server-secret truth to every observation.
func leakTruth(m map[string]any) {
	obs, ok := m["observation"].(map[string]any)
	if !ok {
		return
	}
	v, _ := riyra.DefaultPack().Variant(str(m["variant"]))
	obs["truth"] = v.Truth
}

// leakNotesInEpilogue interpolates field notes into a set epilogue.
func leakNotesInEpilogue(m map[string]any) {
	obs, ok := m["observation"].(map[string]any)
	if !ok || str(obs["epilogue"]) == "" {
		return
	}
	v, _ := riyra.DefaultPack().Variant(str(m["variant"]))
	obs["epilogue"] = str(obs["epilogue"]) + " " + v.FieldNotes
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// brokenCases are the first broken targets, the audit's among them (B1..B18).
var brokenCases = tamperTable("broken targets", func() []harness.Case {
	return []harness.Case{
		{Name: "wrong archive effect", Rule: "IYRA-SITE-EFFECTS", Target: withRules(func(r *riyra.Rules) { r.Effects[riyra.Archive] = riyra.Effect{Evidence: 2, Signal: 2} })},
		{Name: "missing trust gate", Rule: "IYRA-ALLY-TRUST", Target: withRules(func(r *riyra.Rules) { r.AllyMinTrust = 0 })},
		{Name: "ten-step budget", Rule: "IYRA-BUDGET", Target: withRules(func(r *riyra.Rules) { r.MaxSteps = 10 })},
		{Name: "accepts stale revisions", Rule: "IYRA-REVISION-STALE", Target: acceptsStale{server.New(server.Options{Seed: 3})}},
		{Name: "truth in public state", Rule: "IYRA-VISIBILITY", Target: rewrites{server.New(server.Options{Seed: 3}), leakTruth}},
		{Name: "field notes in the epilogue", Rule: "IYRA-VISIBILITY", Target: rewrites{server.New(server.Options{Seed: 3}), leakNotesInEpilogue}},
		{Name: "Idempotency-Key bound to nothing (B1)", Rule: "IYRA-SESSION-KEY-REUSE", Target: keyIgnoresRequest()},
		{Name: "replay misreports the run (B2)", Rule: "IYRA-REPLAY-FAITHFUL", Target: replayLies()},
		{Name: "score never the evidence (B7)", Rule: "IYRA-SCORE", Target: answerField("score", 0, func(map[string]any) bool { return true })},
		{Name: "withdrawal reported a failure (B8)", Rule: "IYRA-OUTCOME", Target: answerField("outcome", "failure", func(m map[string]any) bool { return m["outcome"] == "draw" })},
		{Name: "api_key echoed in the assignment (B13)", Rule: "IYRA-KEY-ONCE", Target: keyInAssignment()},
		{Name: "sessions need no credentials (B14)", Rule: "IYRA-AUTH-BEARER", Target: sessionsWithoutAuth()},
		{Name: "proof checked one zero short (B15)", Rule: "IYRA-PROOF-POW", Target: weakerProof()},
		{Name: "no fallback session path (B17)", Rule: "IYRA-RECOVERY-FALLBACK-PATH", Target: noFallbackPath()},
		{Name: "a next step that writes (B18)", Rule: "IYRA-NEXT-STEPS-READ-ONLY", Target: nextStepWrites()},
	}
})

// TestBrokenTargetsAreCaught runs the checks of each broken rule (only
// those, through the shared harness) against a deliberately broken target
// over HTTP and requires exit code 1 with that rule failed (the property
// has its own test below).
func TestBrokenTargetsAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), brokenCases())
}

// TestHealthyTargetOverHTTPPasses runs the same suite over HTTP against an
// unmodified reference: without the embedded clock and controls the
// @control scenarios skip, and nothing fails.
func TestHealthyTargetOverHTTPPasses(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{Seed: 3}))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
		Target: srv.URL, Seed: 11, Checks: 5})
	if err != nil {
		t.Fatal(err)
	}
	skips := 0
	for _, r := range rep.Results {
		switch r.Status {
		case "pass":
		case "skip":
			skips++
		default:
			t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
		}
	}
	if rep.ExitCode() != 0 || skips == 0 {
		t.Errorf("exit %d with %d skips; want 0 with the @control scenarios skipped", rep.ExitCode(), skips)
	}
}

// TestLockstepPropertyCatchesDivergence runs only the property (tag
// @property selects no scenario) against broken targets: the engine oracle
// must name the diverging rule and keep the shrunk action sequence.
func TestLockstepPropertyCatchesDivergence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		handler http.Handler
		rule    string
	}{
		{"healthy", server.New(server.Options{Seed: 3}), ""},
		{"wrong spire effect", withRules(func(r *riyra.Rules) { r.Effects[riyra.Spire] = riyra.Effect{Evidence: 1, Signal: 1} }), "IYRA-SITE-EFFECTS"},
		{"missing trust gate", withRules(func(r *riyra.Rules) { r.AllyMinTrust = 0 }), "IYRA-ALLY-TRUST"},
		{"accepts stale revisions", acceptsStale{server.New(server.Options{Seed: 3})}, "IYRA-REVISION-STALE"},
		{"truth in public state", rewrites{server.New(server.Options{Seed: 3}), leakTruth}, "IYRA-VISIBILITY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
				Target: srv.URL, Seed: 5, Checks: 30, Tags: "@property", CaseDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 || rep.Results[0].Kind != "property" {
				t.Fatalf("want exactly the property, got %d results", len(rep.Results))
			}
			res := rep.Results[0]
			if c.rule == "" {
				if res.Status != "pass" {
					t.Errorf("healthy target: %s %s", res.Status, res.Message)
				}
				return
			}
			if res.Status != "fail" || res.FailedRule != c.rule || len(res.Sequence) == 0 {
				t.Errorf("got %s on %q (%s), sequence %v; want a fail of %s", res.Status, res.FailedRule, res.Message, res.Sequence, c.rule)
			}
		})
	}
}
