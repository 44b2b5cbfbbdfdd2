package iyra_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// refusesReuseWith422 answers a reused Idempotency-Key with 422 where the
// kit answers 409 (IYRA-STATUS-CODES, a REFERENCE choice): a refusal all
// the same.
func refusesReuseWith422(inner http.Handler) http.Handler {
	return tamper{h: inner, resp: func(r *http.Request, st *int, m map[string]any) {
		if e, _ := m["code"].(string); *st == http.StatusConflict && e == "idempotency_key_reused" {
			*st = http.StatusUnprocessableEntity
		}
	}}
}

// createsUnderAnError creates a new session for a reused key (the key is
// bound to nothing) and answers its creation with 422 all the same: the
// status looks like the refusal the rule allows, the body names the new
// session.
func createsUnderAnError() http.Handler {
	return tamper{h: keyIgnoresRequestOn(ref()), resp: func(r *http.Request, st *int, m map[string]any) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && strings.Contains(r.Header.Get("Idempotency-Key"), "-again-") {
			*st = http.StatusUnprocessableEntity
		}
	}}
}

// TestAnotherRefusalStatusOnlyWarns: a reused key refused with 422 passes
// IYRA-SESSION-KEY-REUSE, another game included (the reference assigns
// helios-relay), and warns on the kit's 409.
func TestAnotherRefusalStatusOnlyWarns(t *testing.T) {
	t.Parallel()
	rep := runRules(t, refusesReuseWith422(ref()), "IYRA-SESSION-KEY-REUSE")
	for _, part := range []string{"another game", "another intended session"} {
		for _, r := range resultsNamed(t, rep, part) {
			warned := false
			for _, w := range append(r.Warnings, r.Message) {
				warned = warned || strings.HasPrefix(w, "IYRA-STATUS-CODES")
			}
			if r.Status != verdict.Warn || !warned {
				t.Errorf("%s: %s %s %s, want a warning on IYRA-STATUS-CODES", r.Name, r.Status, r.FailedRule, r.Message)
			}
		}
	}
}

// TestAnotherRefusalStatusNeverHidesANewSession: the status the kit would
// only warn on does not stand in for the MUST condition: a session created
// under the reused key fails IYRA-SESSION-KEY-REUSE.
func TestAnotherRefusalStatusNeverHidesANewSession(t *testing.T) {
	t.Parallel()
	rep := runRules(t, createsUnderAnError(), "IYRA-SESSION-KEY-REUSE")
	for _, part := range []string{"another game", "another intended session"} {
		for _, r := range resultsNamed(t, rep, part) {
			if r.Status != verdict.Fail || r.FailedRule != "IYRA-SESSION-KEY-REUSE" {
				t.Errorf("%s: %s %s %s, want a fail of IYRA-SESSION-KEY-REUSE", r.Name, r.Status, r.FailedRule, r.Message)
			}
		}
	}
}
