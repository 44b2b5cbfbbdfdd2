package phantompress

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// mutator rewrites one decoded action response of the reference; req is the
// decoded action request and inner lets it call the reference again.
type mutator func(req map[string]any, body map[string]any, inner func(action, arg string) map[string]any)

// breaker wraps the reference so that action responses pass through m.
func breaker(m mutator) http.Handler {
	return breakWith(pp.New(suite.ReferenceConfig{Seed: 3}), nil, m)
}

// breakWith wraps ref: pre may rewrite an action request before the
// reference sees it, m rewrites the decoded action response.
func breakWith(ref *pp.Server, pre func(in map[string]any), m mutator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/action") {
			ref.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		if pre != nil {
			var in map[string]any
			if json.Unmarshal(raw, &in) == nil {
				pre(in)
				raw, _ = json.Marshal(in)
			}
		}
		call := func(body []byte) *httptest.ResponseRecorder {
			rr := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, r.URL.Path, bytes.NewReader(body))
			req.Header = r.Header.Clone()
			ref.ServeHTTP(rr, req)
			return rr
		}
		rec := call(raw)
		var body, in map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil || json.Unmarshal(raw, &in) != nil {
			copyResponse(w, rec)
			return
		}
		m(in, body, func(action, arg string) map[string]any {
			b, _ := json.Marshal(map[string]string{"action": action, "arg": arg})
			var out map[string]any
			json.Unmarshal(call(b).Body.Bytes(), &out)
			return out
		})
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	})
}

func copyResponse(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

// runAgainst runs the suite, or only the checks of rules (through the
// shared broken-target harness), against h served over HTTP: a live target,
// so the kit's quota allowances apply.
func runAgainst(t *testing.T, h http.Handler, rules ...string) (exit int, failed func(string) bool, summary string) {
	t.Helper()
	if len(rules) == 0 {
		srv := httptest.NewServer(h)
		defer srv.Close()
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{Protocol}, Target: srv.URL, Seed: 11, Checks: 5})
		if err != nil {
			t.Fatal(err)
		}
		return rep.ExitCode(), rep.Failed, summarize(rep)
	}
	out, err := harness.Run(Protocol, harness.Case{Name: strings.Join(rules, ","), Rule: rules[0], Rules: rules, Target: h, Checks: 5})
	if err != nil {
		t.Fatal(err)
	}
	return out.Report.ExitCode(), out.Report.Failed, summarize(out.Report)
}

func num(v any) float64 { f, _ := v.(float64); return f }

// TestLiveTargetOfTheReferencePasses runs the suite over HTTP with no
// embedded control: @control scenarios skip, everything else passes.
func TestLiveTargetOfTheReferencePasses(t *testing.T) {
	t.Parallel()
	exit, _, sum := runAgainst(t, pp.New(suite.ReferenceConfig{Seed: 5}))
	if exit != 0 {
		t.Fatalf("exit %d\n%s", exit, sum)
	}
}

func TestBrokenTargets(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, brokenCases())
}

// brokenCases are the first broken targets: each rewrites action answers.
var brokenCases = tamperTable("broken targets", func() []harness.Case {
	cases := []struct {
		name string
		rule string
		m    mutator
	}{
		{"a wrong settlement figure", "PP-SETTLE-TABLE", func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			for _, e := range b["events"].([]any) {
				ev := e.(map[string]any)
				if st, ok := ev["settlement"].(map[string]any); ok {
					line := st["lines"].([]any)[0].(map[string]any)
					line["points"] = num(line["points"]) + 5
				}
			}
		}},
		{"a turn consumed by ok:false", "PP-ACTION-OK-FALSE", func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			if b["ok"] == false {
				st := b["state"].(map[string]any)
				st["turn"] = num(st["turn"]) + 1
				b["turn"] = st["turn"]
			}
		}},
		{"a fourth assertion accepted after three rejections", "PP-ANSWER-HEDGE-ONLY", func(in map[string]any, b map[string]any, inner func(string, string) map[string]any) {
			if b["code"] != "hedge_only" {
				return
			}
			f := strings.Fields(in["arg"].(string))
			f[2] = "留保"
			out := inner("answer", strings.Join(f, " "))
			for k := range b {
				delete(b, k)
			}
			for k, v := range out {
				b[k] = v
			}
			if ans, ok := b["state"].(map[string]any)["answers"].(map[string]any)[f[0]].(map[string]any); ok {
				ans["confidence"] = "断言"
			}
		}},
		{"a leaked answer before publish", "PP-HIDE-BEFORE-PUBLISH", func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			st := b["state"].(map[string]any)
			for _, q := range st["case"].(map[string]any)["questions"].([]any) {
				q.(map[string]any)["correct"] = "真"
			}
		}},
	}
	var tampers []harness.Case
	for _, c := range cases {
		tampers = append(tampers, harness.Case{Name: c.name, Rule: c.rule, Target: breaker(c.m)})
	}
	return tampers
})

// runID extracts the run ID of an action path.
func runID(path string) string {
	f := strings.Split(strings.TrimSuffix(path, "/action"), "/")
	return f[len(f)-1]
}

// leaking wraps the reference so every action answer passes through leak,
// which may read the run's hidden reveal.
func leaking(leak func(rv map[string]any, body map[string]any)) http.Handler {
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/action") {
			ref.ServeHTTP(w, r)
			return
		}
		rv, _ := ref.RevealOf(runID(r.URL.Path))
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, r)
		var body map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body["ok"] != true {
			copyResponse(w, rec)
			return
		}
		var pub map[string]any
		raw, _ := json.Marshal(rv)
		json.Unmarshal(raw, &pub)
		if st, _ := body["state"].(map[string]any); st != nil && st["status"] == "active" && !hasEvent(body, "published") {
			leak(pub, body)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	})
}

func hasEvent(body map[string]any, typ string) bool {
	evs, _ := body["events"].([]any)
	for _, e := range evs {
		if m, _ := e.(map[string]any); m["type"] == typ {
			return true
		}
	}
	return false
}

// TestAuditedBrokenTargets keeps the independent audit's most important
// broken servers: each must fail with the rule it breaks.
func TestAuditedBrokenTargets(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, auditedCases())
}

// auditedCases are the independent audit's broken servers.
var auditedCases = tamperTable("audited broken targets", func() []harness.Case {
	cases := []struct {
		name, rule string
		h          http.Handler
	}{
		// noassertok: a properly backed assertion is never recorded.
		{"noassertok", "PP-ANSWER-ASSERT-SOURCES", breakWith(pp.New(suite.ReferenceConfig{Seed: 3}), func(in map[string]any) {
			if in["action"] != "answer" {
				return
			}
			f := strings.Fields(in["arg"].(string))
			if len(f) >= 4 && f[2] == "断言" && f[1] != "裏取り不能" {
				in["arg"] = strings.Join(f[:3], " ") // the reference refuses it for want of a source
			}
		}, func(map[string]any, map[string]any, func(string, string) map[string]any) {})},
		// leakfield: the correct verdict under a question's verdict_hint.
		{"leakfield", "PP-HIDE-BEFORE-PUBLISH", leaking(func(rv, body map[string]any) {
			st := body["state"].(map[string]any)
			answers, _ := rv["answers"].(map[string]any)
			for _, q := range st["case"].(map[string]any)["questions"].([]any) {
				qm := q.(map[string]any)
				qm["verdict_hint"] = answers[qm["id"].(string)]
			}
		})},
		// leaknarr: the answers whispered in the narrative, without 正解.
		{"leaknarr", "PP-HIDE-BEFORE-PUBLISH", leaking(func(rv, body map[string]any) {
			answers, _ := rv["answers"].(map[string]any)
			for q, v := range answers {
				body["narrative"] = body["narrative"].(string) + "（デスクの耳打ち：" + q + "は" + v.(string) + "）"
			}
		})},
		// apneg: a read with too little AP goes through and AP turns negative.
		{"apneg", "PP-AP-INSUFFICIENT", breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			if b["code"] != "no_ap" {
				return
			}
			st := b["state"].(map[string]any)
			st["ap"] = num(st["ap"]) - 2
			st["turn"] = num(st["turn"]) + 1
			b["turn"], b["ok"] = st["turn"], true
			delete(b, "code")
			delete(b, "error")
		})},
		// seededlb: seeded runs are ranked.
		{"seededlb", "PP-RUN-SEEDED", seededOnBoard()},
	}
	var tampers []harness.Case
	for _, c := range cases {
		tampers = append(tampers, harness.Case{Name: c.name, Rule: c.rule, Target: c.h})
	}
	return tampers
})

// seededOnBoard ranks every seeded run on the leaderboard.
func seededOnBoard() http.Handler {
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	var seeded []map[string]any
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs"):
			raw, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, r)
			var in, out map[string]any
			json.Unmarshal(raw, &in)
			json.Unmarshal(rec.Body.Bytes(), &out)
			if in["seed"] != nil && out["run_id"] != nil {
				seeded = append(seeded, map[string]any{"rank": 1, "agent": map[string]any{"id": "agt_seeded", "name": "seeded"}, "score": 9999, "run_id": out["run_id"]})
			}
			copyResponse(w, rec)
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/leaderboard"):
			rec := httptest.NewRecorder()
			ref.ServeHTTP(rec, r)
			var out map[string]any
			json.Unmarshal(rec.Body.Bytes(), &out)
			es, _ := out["entries"].([]any)
			for _, e := range seeded {
				es = append([]any{e}, es...)
			}
			out["entries"] = es
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(out)
		default:
			ref.ServeHTTP(w, r)
		}
	})
}

// TestUTCResetIsAFailure runs the quota-reset check against an embedded
// reference whose quota day turns at midnight UTC (the audit's utcreset):
// PP-QUOTA-RESET must fail, not error.
func TestUTCResetIsAFailure(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, resetCases())
}

var resetCases = tamperTable("quota reset", func() []harness.Case {
	return []harness.Case{{Name: "quota day turns at midnight UTC", Rule: "PP-QUOTA-RESET", Seed: 5,
		Reference: func(cfg suite.ReferenceConfig) http.Handler { return pp.New(cfg, pp.WithQuotaDayIn(time.UTC)) }}}
})
