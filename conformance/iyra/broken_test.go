package iyra_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
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
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	var m map[string]any
	if json.Unmarshal(body, &m) == nil && m != nil {
		s.edit(m)
		body, _ = json.Marshal(m)
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
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

// TestBrokenTargetsAreCaught runs the features against deliberately broken
// targets over HTTP and requires exit code 1 with the right rule failed
// (the property has its own test below).
func TestBrokenTargetsAreCaught(t *testing.T) {
	cases := []struct {
		name    string
		handler http.Handler
		rule    string
	}{
		{"wrong archive effect", withRules(func(r *riyra.Rules) { r.Effects[riyra.Archive] = riyra.Effect{Evidence: 2, Signal: 2} }), "IYRA-SITE-EFFECTS"},
		{"missing trust gate", withRules(func(r *riyra.Rules) { r.AllyMinTrust = 0 }), "IYRA-ALLY-TRUST"},
		{"ten-step budget", withRules(func(r *riyra.Rules) { r.MaxSteps = 10 }), "IYRA-BUDGET"},
		{"accepts stale revisions", acceptsStale{server.New(server.Options{Seed: 3})}, "IYRA-REVISION-STALE"},
		{"truth in public state", rewrites{server.New(server.Options{Seed: 3}), leakTruth}, "IYRA-VISIBILITY"},
		{"field notes in the epilogue", rewrites{server.New(server.Options{Seed: 3}), leakNotesInEpilogue}, "IYRA-VISIBILITY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
				Target: srv.URL, Seed: 11, NoProperties: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.ExitCode() != 1 {
				t.Errorf("exit code %d, want 1", rep.ExitCode())
			}
			if !rep.Failed(c.rule) {
				var failed []string
				for _, r := range rep.Results {
					if r.Status == "fail" {
						failed = append(failed, r.FailedRule)
					}
				}
				t.Errorf("%s did not fail; failed rules: %v", c.rule, failed)
			}
		})
	}
}

// TestHealthyTargetOverHTTPPasses runs the same suite over HTTP against an
// unmodified reference: without the embedded clock and controls the
// @control scenarios skip, and nothing fails.
func TestHealthyTargetOverHTTPPasses(t *testing.T) {
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
