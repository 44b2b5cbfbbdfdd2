package phantompress

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// liveReport runs the Phantom Press suite against h over loopback, as
// `conformance run --target` does.
func liveReport(t *testing.T, h http.Handler, checks int, rules ...string) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{Protocol}, Target: srv.URL,
		Seed: 11, Checks: checks, NoProperties: checks < 0, Rules: rules, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// failedChecks lists the failed and errored checks of a report.
func failedChecks(rep *verdict.Report) []string {
	var out []string
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			out = append(out, r.Name+" -> "+r.FailedRule+": "+r.Message)
		}
	}
	return out
}

// isAction reports whether r is an action request.
func isAction(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/action")
}

// faithfulPP takes the seed's open choices the other way: an ok:false
// refusal answers 400, available_actions leaves out the meta-actions status
// and comment, the reveal names no traps or witness types, creations answer
// 200 rather than 201, error bodies say "message" where the kit says
// "error", and status is refused 409 once the budget is spent. With
// settledAs set, the settlement event is renamed and documents and
// testimonies come in other event shapes too, so only the seed's
// invariants in the state can be checked at publish.
func faithfulPP(settledAs string) http.Handler {
	return harness.Wrap(pp.New(suite.ReferenceConfig{Seed: 3}),
		func(r *http.Request, body []byte) []byte {
			if isAction(r) {
				r.Header.Set("X-Variant-Action", actionOf(body))
			}
			return body
		},
		func(r *http.Request, status *int, m map[string]any) {
			if st, ok := m["state"].(map[string]any); ok && isAction(r) && r.Header.Get("X-Variant-Action") == "status" &&
				jsonInt(st, "turn") >= jsonInt(st, "budget_turns") {
				*status = http.StatusConflict
				for k := range m {
					delete(m, k)
				}
				m["code"], m["message"] = "budget_spent", "予算切れ"
				return
			}
			if *status == http.StatusCreated {
				*status = http.StatusOK
			}
			if msg, ok := m["error"]; ok && m["ok"] == nil {
				m["message"] = msg
				delete(m, "error")
			}
			if !isAction(r) {
				return
			}
			if ok, isBool := m["ok"].(bool); isBool && !ok && *status == http.StatusOK {
				*status = http.StatusBadRequest
			}
			m["available_actions"] = without(m["available_actions"], "status", "comment")
			events, _ := m["events"].([]any)
			for _, e := range events {
				ev, _ := e.(map[string]any)
				st, _ := ev["settlement"].(map[string]any)
				if rv, ok := st["reveal"].(map[string]any); ok {
					delete(rv, "traps")
					delete(rv, "witnesses")
				}
				if st != nil && settledAs != "" {
					ev["type"] = settledAs
					ev["result"] = st
					delete(ev, "settlement")
				}
				for kit, other := range map[string]string{"document": "material", "testimony": "statement"} {
					if v, ok := ev[kit]; ok && settledAs != "" {
						ev[other] = v
						delete(ev, kit)
					}
				}
			}
		})
}

// without drops names from a JSON list of strings.
func without(list any, names ...string) []any {
	var out []any
	items, _ := list.([]any)
	for _, it := range items {
		s, _ := it.(string)
		keep := true
		for _, n := range names {
			keep = keep && s != n
		}
		if keep {
			out = append(out, it)
		}
	}
	if out == nil {
		out = []any{}
	}
	return out
}

// A faithful deployment that takes the open choices above the other way
// passes the live suite with no failure (issue 14's variant tests).
func TestFaithfulPhantomPressVariantsPass(t *testing.T) {
	t.Parallel()
	for _, settledAs := range []string{"", "settled"} {
		t.Run("settlement event "+settledAs, func(t *testing.T) {
			rep := liveReport(t, faithfulPP(settledAs), 3)
			if got := failedChecks(rep); len(got) > 0 || rep.ExitCode() != 0 {
				t.Errorf("exit %d, failures:\n%s", rep.ExitCode(), strings.Join(got, "\n"))
			}
			c := rep.Tally()["phantom-press"]
			if c[verdict.Pass]+c[verdict.Warn] < 50 {
				t.Errorf("the variant was not really checked: %v", c)
			}
		})
	}
}
