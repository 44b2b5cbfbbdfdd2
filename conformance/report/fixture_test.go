package report

import (
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// bigSeed does not fit a float64 exactly, so it proves the JSON writer keeps
// 64-bit integers intact.
const bigSeed uint64 = 18446744073709551557

// hostile is target-controlled text that must never become markup.
const hostile = `<script>alert("pwned")</script>`

// sampleReport builds a run over two protocols holding every status: a pass,
// two fails (one a property with seed, sequence and case file), a warning, a
// skip, a harness error, a pass with warnings, a rule only ever skipped, an
// untested rule and a result citing a rule the catalogue lacks.
//
// Expected per protocol:
//
//	iyra: pass 1, fail 2, warn 1, skip 1, error 0, total 5, covered 3/5
//	pp:   pass 3, fail 0, warn 0, skip 0, error 1, total 4, covered 2/3 (an errored check judges nothing)
func sampleReport() *verdict.Report {
	return &verdict.Report{
		Tool:     "conformance",
		Started:  time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		Duration: 1500 * time.Millisecond,
		Seed:     42,
		Embedded: true,
		Protocols: []verdict.ProtocolInfo{
			{Name: "iyra", Title: "Iyra tasks", Target: "http://127.0.0.1:1/api/v5", Seed: "iyra.md", Rules: []verdict.RuleInfo{
				{ID: "IYRA-ID-EXPIRY", Level: verdict.Must, Title: "Expired challenges are rejected", Quote: "a challenge expires after 60 seconds", Path: "$.identity.challenge"},
				{ID: "IYRA-SITE-EFFECTS", Level: verdict.Must, Title: "Site effects apply", Quote: "effects apply at once", Path: "$.sites"},
				{ID: "IYRA-OPENAPI", Level: verdict.Reference, Title: "Responses match the OpenAPI document", Quote: "responses are JSON", Path: "$", Choice: "shapes in openapi.yaml"},
				{ID: "IYRA-SKIPONLY", Level: verdict.Must, Title: "Daily reset", Quote: "resets daily", Path: "$.reset"},
				{ID: "IYRA-UNTESTED", Level: verdict.Should, Title: "Nobody checks this", Quote: "should be polite", Path: "$.manners"},
			}},
			{Name: "pp", Title: "PP sessions", Target: "http://127.0.0.1:2/pp", Seed: "pp.md", Rules: []verdict.RuleInfo{
				{ID: "PP-SESSION-KEY", Level: verdict.Must, Title: "Session key format", Quote: "keys are 32 hex chars", Path: "$.session_key"},
				{ID: "PP-RATE", Level: verdict.Should, Title: "Rate limit", Quote: "at most 10 per second", Path: "$.rate"},
				{ID: "PP-ERRORS", Level: verdict.Reference, Title: "Error bodies carry a code", Quote: "errors are reported", Path: "$.errors", Choice: "{code, message}"},
			}},
		},
		Results: sampleResults(),
	}
}

// sampleResults are the checks of sampleReport, in run order.
func sampleResults() []verdict.Result {
	return []verdict.Result{
		{Protocol: "iyra", Feature: "identity proof", Name: "accepts a fresh challenge", Kind: "scenario",
			Rules: []string{"IYRA-ID-EXPIRY"}, Status: verdict.Pass, Duration: 3 * time.Millisecond},
		expiredFail(),
		{Protocol: "iyra", Feature: "site effects", Name: "response shape", Kind: "scenario",
			Rules: []string{"IYRA-SITE-EFFECTS", "IYRA-OPENAPI"}, Status: verdict.Warn, FailedRule: "IYRA-OPENAPI",
			Message: "response does not match schema: missing property effects", Duration: 4 * time.Millisecond},
		{Protocol: "iyra", Feature: "clock", Name: "daily reset", Kind: "scenario",
			Rules: []string{"IYRA-SKIPONLY"}, Status: verdict.Skip, Message: "skipped: no clock against a live target"},
		{Protocol: "iyra", Feature: "properties", Name: "site state machine", Kind: "property",
			Rules: []string{"IYRA-SITE-EFFECTS"}, Status: verdict.Fail, FailedRule: "IYRA-SITE-EFFECTS",
			Message: "site morale not raised", Expected: "morale 3", Observed: "morale 2",
			Seed: bigSeed, Sequence: []string{`{"act":"ally","site":1}`, `{"act":"raid","site":1}`},
			CaseFile: "/tmp/cases/iyra-0001.json", Duration: 2 * time.Second},
		{Protocol: "pp", Feature: "session", Name: "key format", Kind: "scenario",
			Rules: []string{"PP-SESSION-KEY"}, Status: verdict.Pass, Duration: time.Millisecond},
		{Protocol: "pp", Feature: "session", Name: "rate limit", Kind: "scenario",
			Rules: []string{"PP-RATE"}, Status: verdict.Error, Message: "harness error: dial tcp 127.0.0.1:2: connection refused"},
		{Protocol: "pp", Feature: "errors", Name: "malformed json", Kind: "scenario",
			Rules: []string{"PP-ERRORS"}, Status: verdict.Pass, Warnings: []string{"PP-ERRORS: error body has no code"}},
		{Protocol: "pp", Feature: "errors", Name: "ghost rule", Kind: "scenario",
			Rules: []string{"PP-GHOST"}, Status: verdict.Pass},
	}
}

// expiredFail is a MUST failure with a transcript whose bodies hold markup,
// a control character and a body far over the text limit.
func expiredFail() verdict.Result {
	return verdict.Result{
		Protocol: "iyra", Feature: "identity proof", Name: "rejects an expired challenge " + hostile, Kind: "scenario",
		Rules: []string{"IYRA-ID-EXPIRY"}, Status: verdict.Fail, FailedRule: "IYRA-ID-EXPIRY",
		Message:  `IYRA-ID-EXPIRY: expected 401, observed 200 ` + hostile,
		Expected: "401", Observed: "200",
		Duration: 3 * time.Millisecond,
		Transcript: []verdict.Exchange{
			{Method: "POST", URL: "http://127.0.0.1:1/api/v5/identity/prove", Status: 200,
				ReqHeader: map[string]string{"Authorization": "[redacted]", "Content-Type": "application/json"},
				ReqBody:   `{"answer":"` + hostile + "\x00\x01" + `"}`,
				RespBody:  `{"token":"` + strings.Repeat("x", 5000) + `"}`,
				Elapsed:   2 * time.Millisecond, Note: "challenge issued 61s earlier"},
		},
	}
}
