package pyyol_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// rewritesMoves passes every /turn answer of h through edit.
func rewritesMoves(h http.Handler, edit func(map[string]any) any) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/turn") {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var mv map[string]any
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &mv) != nil {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		json.NewEncoder(w).Encode(edit(mv))
	})
}

// liveStatuses runs every pyyol-push check against h and counts the
// results by status, keeping the rules that failed and warned.
func liveStatuses(t *testing.T, h http.Handler) (fails, warns []string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "", pushSettings)
	for _, r := range rep.Results {
		switch r.Status {
		case verdict.Fail:
			fails = append(fails, r.FailedRule)
		case verdict.Warn:
			warns = append(warns, r.FailedRule)
		case verdict.Pass:
		default:
			t.Errorf("%s %s: %s", r.Status, r.Name, r.Message)
		}
	}
	return fails, warns
}

// TestWrappedMovesAreReadNotFailed: an agent that answers every move as
// {"move": {...}} (a reading the docs leave open) fails nothing; the
// checks that read its moves warn once under PYYOL-REF-PUSH-BODIES.
func TestWrappedMovesAreReadNotFailed(t *testing.T) {
	t.Parallel()
	full := agent.New(agent.Options{Mafia: true, Monopoly: true})
	fails, warns := liveStatuses(t, rewritesMoves(full, func(mv map[string]any) any { return map[string]any{"move": mv} }))
	if len(fails) != 0 {
		t.Errorf("failed %v: a wrapped move is a reading, not a fault", fails)
	}
	if len(warns) == 0 {
		t.Error("no warning: the reading other than the reference's went unrecorded")
	}
	for _, w := range warns {
		if w != "PYYOL-REF-PUSH-BODIES" {
			t.Errorf("warning under %s, want PYYOL-REF-PUSH-BODIES", w)
		}
	}
}

// TestSDKDefaultFieldsAreNoReading: the SDK's serialization of unused
// fields (target -1, tone and text "", property and amount 0) is neither
// a failure nor a warning.
func TestSDKDefaultFieldsAreNoReading(t *testing.T) {
	t.Parallel()
	full := agent.New(agent.Options{Mafia: true, Monopoly: true})
	fails, warns := liveStatuses(t, rewritesMoves(full, func(mv map[string]any) any {
		if _, ok := mv["action"]; ok {
			for field, none := range map[string]any{"target": -1, "tone": "", "text": "", "property": 0, "amount": 0} {
				if _, set := mv[field]; !set {
					mv[field] = none
				}
			}
		}
		return mv
	}))
	if len(fails)+len(warns) != 0 {
		t.Errorf("failed %v, warned %v on the SDK's unused-field defaults", fails, warns)
	}
}

// TestWrappedIllegalMoveStillFails: normalizing comes before judging, so
// an illegal card inside {"move": ...} fails its rule as a bare one does.
func TestWrappedIllegalMoveStillFails(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(rewritesMoves(agent.New(agent.Options{}), func(mv map[string]any) any {
		mv["card"] = 13
		return map[string]any{"move": mv}
	}))
	defer srv.Close()
	rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "PYYOL-PUSH-LEGAL-MOVES", pushSettings)
	if rep.ExitCode() != 1 || !rep.Failed("PYYOL-PUSH-LEGAL-MOVES") {
		t.Errorf("exit %d; want a fail naming PYYOL-PUSH-LEGAL-MOVES; got %v", rep.ExitCode(), failedRules(rep))
	}
}
