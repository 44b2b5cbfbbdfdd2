package iyra_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	riyra "github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// runLive runs the Iyra suite against h over loopback, as
// `conformance run --target` does.
func runLive(t *testing.T, h http.Handler, checks int, rules ...string) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()},
		Target: srv.URL, Seed: 11, Checks: checks, NoProperties: checks < 0, Rules: rules, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// failures lists the failed checks of a report as "rule: message".
func failures(rep *verdict.Report) []string {
	var out []string
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			out = append(out, r.Name+" -> "+r.FailedRule+": "+r.Message)
		}
	}
	return out
}

// replaceAll makes m's content exactly with.
func replaceAll(m, with map[string]any) {
	for k := range m {
		delete(m, k)
	}
	for k, v := range with {
		m[k] = v
	}
}

// rulesServer is the reference with some of its rules changed.
func rulesServer(edit func(*riyra.Rules)) http.Handler {
	r := riyra.DefaultRules()
	r.Effects = map[riyra.Site]riyra.Effect{}
	for k, v := range riyra.DefaultRules().Effects {
		r.Effects[k] = v
	}
	edit(&r)
	return server.New(server.Options{Seed: 3, Rules: &r})
}

// Targets whose success thresholds are off by one at either edge are caught
// by the variant-free boundary scenarios, whatever claim their records
// corroborate (issues 8 and 14: evidence 4, signal 3).
func TestThresholdsOffByOneAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), thresholdCases())
}

// thresholdCases move a success threshold by one; each runs both ending
// rules' checks and must fail the one it breaks.
var thresholdCases = tamperTable("thresholds off by one", func() []harness.Case {
	both := []string{"IYRA-ENDING-SUCCESS", "IYRA-ENDING-UNVERIFIED"}
	return []harness.Case{
		{Name: "a verified broadcast needs evidence 5", Rule: "IYRA-ENDING-SUCCESS", Rules: both, Target: rulesServer(func(r *riyra.Rules) { r.MinEvidence = 5 })},
		{Name: "a verified broadcast needs signal 4", Rule: "IYRA-ENDING-SUCCESS", Rules: both, Target: rulesServer(func(r *riyra.Rules) { r.MinSignal = 4 })},
		{Name: "a verified broadcast needs evidence 3 only", Rule: "IYRA-ENDING-UNVERIFIED", Rules: both, Target: rulesServer(func(r *riyra.Rules) { r.MinEvidence = 3 })},
	}
})

// sessionsWithoutKey creates sessions whatever credentials come with the
// request: it hands a creation to the reference with the last key it saw
// issued.
func sessionsWithoutKey() http.Handler {
	var mu sync.Mutex
	var last string
	return harness.Wrap(server.New(server.Options{Seed: 3}),
		func(r *http.Request, body []byte) []byte {
			mu.Lock()
			defer mu.Unlock()
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") && last != "" {
				r.Header.Set("Authorization", "Bearer "+last)
			}
			return body
		},
		func(r *http.Request, status *int, m map[string]any) {
			if k, ok := m["api_key"].(string); ok && k != "" {
				mu.Lock()
				last = k
				mu.Unlock()
			}
		})
}

// A target creating sessions without a valid key fails IYRA-AUTH-BEARER
// (audit probe M14).
func TestSessionCreationWithoutKeyIsCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), keylessCases())
}

var keylessCases = tamperTable("sessions without a key", func() []harness.Case {
	return []harness.Case{{Name: "sessions created without a valid key (M14)", Rule: "IYRA-AUTH-BEARER", Target: sessionsWithoutKey()}}
})

// labels are the variant's collected_sources entries: labels, not site ids.
var labels = map[string]string{"archive": "archive records", "harbor": "harbor testimony", "spire": "spire checksums"}

// faithfulVariant takes the contract's open choices the other way: the
// select_claim parameter is named claim_id, outcome and score sit in a
// summary object, an unknown idempotency key answers 200 naming no session,
// collected_sources lists labels, ready_to_act false is taken as true, the
// optional audit layer is not offered, and an unverified broadcast leaves
// the epilogue empty.
func faithfulVariant() http.Handler {
	return harness.Wrap(server.New(server.Options{Seed: 3}),
		func(r *http.Request, body []byte) []byte {
			switch {
			case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/actions"):
				return bytes.Replace(body, []byte(`"claim_id":`), []byte(`"claim":`), 1)
			case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions"):
				return bytes.Replace(body, []byte(`"ready_to_act":false`), []byte(`"ready_to_act":true`), 1)
			}
			return body
		},
		func(r *http.Request, status *int, m map[string]any) {
			switch {
			case strings.HasSuffix(r.URL.Path, "/idempotency/status") && *status == http.StatusNotFound:
				*status = http.StatusOK
				replaceAll(m, map[string]any{"status": "not_found"})
				return
			case r.URL.Query().Get("include") == "audit":
				*status = http.StatusBadRequest
				replaceAll(m, map[string]any{"code": "layer_not_offered", "message": "this deployment offers no audit layer"})
				return
			}
			renameClaimParam(m)
			relabelSources(m)
			moveSummary(m)
			if obs, ok := m["observation"].(map[string]any); ok && obs["ending"] == "unverified_broadcast" {
				obs["epilogue"] = ""
			}
		})
}

// renameClaimParam renames select_claim's parameter in legal_actions and
// in a replay's actions.
func renameClaimParam(m map[string]any) {
	for _, key := range []string{"legal_actions", "actions"} {
		list, _ := m[key].([]any)
		for _, e := range list {
			obj, _ := e.(map[string]any)
			if inner, ok := obj["action"].(map[string]any); ok {
				obj = inner
			}
			if params, ok := obj["parameters"].(map[string]any); ok && obj["type"] == "select_claim" {
				params["claim_id"], params["claim"] = params["claim"], nil
				delete(params, "claim")
			}
			if c, ok := obj["claim"]; ok && obj["type"] == "select_claim" {
				obj["claim_id"] = c
				delete(obj, "claim")
			}
		}
	}
}

// relabelSources replaces the site ids of collected_sources by labels.
func relabelSources(m map[string]any) {
	obs, _ := m["observation"].(map[string]any)
	list, _ := obs["collected_sources"].([]any)
	for i, s := range list {
		if l, ok := labels[s.(string)]; ok {
			list[i] = l
		}
	}
}

// moveSummary moves outcome and score of a session answer into a summary
// object.
func moveSummary(m map[string]any) {
	if _, ok := m["session_id"]; !ok {
		return
	}
	if _, ok := m["observation"]; !ok {
		return
	}
	summary := map[string]any{}
	for _, k := range []string{"outcome", "score"} {
		if v, ok := m[k]; ok {
			summary[k] = v
			delete(m, k)
		}
	}
	m["summary"] = summary
}

// A faithful deployment that takes every open choice above the other way
// passes the live suite with no failure (issue 14's variant tests).
func TestFaithfulIyraVariantPasses(t *testing.T) {
	t.Parallel()
	rep := runLive(t, faithfulVariant(), 5)
	if got := failures(rep); len(got) > 0 || rep.ExitCode() != 0 {
		t.Errorf("exit %d, failures:\n%s", rep.ExitCode(), strings.Join(got, "\n"))
	}
	c := rep.Tally()["iyra"]
	if decided := c[verdict.Pass] + c[verdict.Warn]; decided < 140 || c[verdict.Skip] > 10 {
		t.Errorf("the variant was not really checked: %v", c)
	}
}

// swappedConsequences gives each ally the other's publication consequence
// in its verified epilogue (audit probe M4).
func swappedConsequences() http.Handler {
	pack := riyra.DefaultPack()
	k, d := pack.Epilogues["keepers"], pack.Epilogues["drifters"]
	return harness.Responses(server.New(server.Options{Seed: 3}), func(r *http.Request, status *int, m map[string]any) {
		if obs, ok := m["observation"].(map[string]any); ok {
			e, _ := obs["epilogue"].(string)
			e = strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(e, k, "\x00"), d, k), "\x00", d)
			obs["epilogue"] = e
		}
	})
}

// Swapped faction consequences no longer pass silently: the kit's reading of
// the contract's words warns (it cannot fail: epilogues are free text).
func TestSwappedConsequencesWarn(t *testing.T) {
	t.Parallel()
	rep := runLive(t, swappedConsequences(), -1, "IYRA-FACTION-WORDS")
	if st := rep.RuleStatus("IYRA-FACTION-WORDS"); st != verdict.Warn || rep.ExitCode() != 0 {
		t.Errorf("IYRA-FACTION-WORDS %s, exit %d: %v", st, rep.ExitCode(), failures(rep))
	}
}

// scoreAtEveryEnding scores the evidence at every ending, not only a
// verified one (audit probe M2).
func scoreAtEveryEnding() http.Handler {
	return harness.Responses(server.New(server.Options{Seed: 3}), func(r *http.Request, status *int, m map[string]any) {
		obs, ok := m["observation"].(map[string]any)
		if !ok || obs["ending"] == nil || obs["ending"] == "" {
			return
		}
		if _, has := m["score"]; has {
			m["score"] = obs["evidence"]
		}
	})
}

// chapterStaysInquiry reports the inquiry chapter whatever the latest
// activity (audit probe M3).
func chapterStaysInquiry() http.Handler {
	return harness.Responses(server.New(server.Options{Seed: 3}), func(r *http.Request, status *int, m map[string]any) {
		if obs, ok := m["observation"].(map[string]any); ok && obs["chapter"] != "arrival" {
			obs["chapter"] = "inquiry"
		}
	})
}

// noTrustDocument answers the published /trust URL 404.
func noTrustDocument() http.Handler {
	return harness.Wrap(server.New(server.Options{Seed: 3}), nil, func(r *http.Request, status *int, m map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/trust") {
			*status = http.StatusNotFound
			replaceAll(m, map[string]any{"code": "not_found", "message": "no trust document"})
		}
	})
}

// changeNeedsTwoEvidence refuses a claim change at exactly evidence 1, as
// if a change needed evidence 2 (audit probe T5): it reads the session's
// state from the reference before passing the change on.
func changeNeedsTwoEvidence() http.Handler {
	ref := server.New(server.Options{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/actions") && bytes.Contains(body, []byte(`"select_claim"`)) {
			probe := httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/actions"), nil)
			probe.Header.Set("Authorization", r.Header.Get("Authorization"))
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, probe)
			var s struct {
				Observation struct {
					Evidence      int    `json:"evidence"`
					SelectedClaim string `json:"selected_claim"`
				} `json:"observation"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &s) == nil && s.Observation.SelectedClaim != "" && s.Observation.Evidence == 1 &&
				!bytes.Contains(body, []byte(`"`+s.Observation.SelectedClaim+`"`)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusConflict)
				w.Write([]byte(`{"code":"insufficient_evidence","message":"changing claims requires evidence >= 2"}`))
				return
			}
		}
		ref.ServeHTTP(w, r)
	})
}

// The MUST rules this branch added or raised fail live on a target that
// breaks them, through the kit's tamper harness.
func TestNewMustRulesAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), newMustCases())
}

var newMustCases = tamperTable("new MUST rules", func() []harness.Case {
	return []harness.Case{
		{Name: "score at every ending", Rule: "IYRA-SCORE-UNVERIFIED", Target: scoreAtEveryEnding()},
		{Name: "chapter stays inquiry", Rule: "IYRA-CHAPTER-LATEST", Target: chapterStaysInquiry()},
		{Name: "no trust document", Rule: "IYRA-PUBLISHED-URLS", Target: noTrustDocument()},
		{Name: "a claim change needs evidence 2", Rule: "IYRA-CLAIM-CHANGE", Target: changeNeedsTwoEvidence()},
	}
})
