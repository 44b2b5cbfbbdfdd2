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

	"github.com/agentgames/conformance/conformance/suite"
	pp "github.com/agentgames/conformance/reference/phantompress"
)

// mutator rewrites one decoded action response of the reference; req is the
// decoded action request and inner lets it call the reference again.
type mutator func(req map[string]any, body map[string]any, inner func(action, arg string) map[string]any)

// breaker wraps the reference so that action responses pass through m.
func breaker(m mutator) http.Handler {
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/action") {
			ref.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
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

// runAgainst runs the whole suite against h served over HTTP.
func runAgainst(t *testing.T, h http.Handler) (exit int, failed func(string) bool, summary string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{Protocol}, Target: srv.URL, Seed: 11, Checks: 5})
	if err != nil {
		t.Fatal(err)
	}
	return rep.ExitCode(), rep.Failed, summarize(rep)
}

func num(v any) float64 { f, _ := v.(float64); return f }

// TestLiveTargetOfTheReferencePasses runs the suite over HTTP with no
// embedded control: @control scenarios skip, everything else passes.
func TestLiveTargetOfTheReferencePasses(t *testing.T) {
	exit, _, sum := runAgainst(t, pp.New(suite.ReferenceConfig{Seed: 5}))
	if exit != 0 {
		t.Fatalf("exit %d\n%s", exit, sum)
	}
}

func TestBrokenTargets(t *testing.T) {
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
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exit, failed, sum := runAgainst(t, breaker(c.m))
			if exit != 1 || !failed(c.rule) {
				t.Fatalf("exit %d, %s failed: %v\n%s", exit, c.rule, failed(c.rule), sum)
			}
		})
	}
}
