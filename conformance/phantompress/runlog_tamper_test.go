package phantompress

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// fullLogScenario is the scenario of the shape-free full-log check.
const fullLogScenario = "The public log records every action but status"

// editLog rewrites the public log's entries (GET /runs/:id) with edit.
func editLog(edit func(m map[string]any, entries []any)) http.Handler {
	return harness.Responses(pp.New(suite.ReferenceConfig{Seed: 3}), func(r *http.Request, _ *int, m map[string]any) {
		if entries, ok := m["log"].([]any); ok && r.Method == http.MethodGet {
			edit(m, entries)
		}
	})
}

// dropsAction leaves one kind of action out of the public log.
func dropsAction(action string) http.Handler {
	return editLog(func(m map[string]any, entries []any) {
		kept := []any{}
		for _, e := range entries {
			if entry, _ := e.(map[string]any); entry["action"] != action {
				kept = append(kept, e)
			}
		}
		m["log"] = kept
	})
}

// A log that leaves out the comments, the publishes, the looks or the
// interviews is caught, naming the full-log rule; one that records the
// status action is caught naming PP-STATUS (not logged).
func TestALogMissingAnActionFails(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, logCases())
}

// logCases are the broken logs of TestALogMissingAnActionFails.
var logCases = tamperTable("run log", func() []harness.Case {
	var cases []harness.Case
	for _, action := range []string{"comment", "publish", "look", "interview"} {
		cases = append(cases, harness.Case{Name: "the log leaves out every " + action, Rule: "PP-RUN-LOG-FULL", Target: dropsAction(action)})
	}
	cases = append(cases, harness.Case{Name: "the log records the status action", Rule: "PP-STATUS", Rules: []string{"PP-RUN-LOG-FULL"},
		Target: editLog(func(m map[string]any, entries []any) {
			m["log"] = append(entries, map[string]any{"seq": len(entries) + 1, "action": "status", "ok": true})
		})})
	return cases
})

// renamedLog keeps every entry under other names: the list is "history",
// each entry {n, kind, target, text}, and comments go to a "diary" list
// of their own.
func renamedLog() http.Handler {
	return editLog(func(m map[string]any, entries []any) {
		history, diary := []any{}, []any{}
		for _, e := range entries {
			entry, _ := e.(map[string]any)
			if entry["action"] == "comment" {
				diary = append(diary, map[string]any{"written": entry["arg"]})
				continue
			}
			history = append(history, map[string]any{"n": entry["seq"], "kind": entry["action"], "target": entry["arg"], "text": entry["narrative"]})
		}
		delete(m, "log")
		m["history"], m["diary"] = history, diary
	})
}

// textLog spells each entry as one line of text, the action first.
func textLog() http.Handler {
	return editLog(func(m map[string]any, entries []any) {
		lines := []any{}
		for _, e := range entries {
			entry, _ := e.(map[string]any)
			lines = append(lines, strings.TrimSpace(fmt.Sprintf("%v %v", entry["action"], entry["arg"])))
		}
		m["log"] = lines
	})
}

// turnLog numbers each line by its turn and says what happened without
// the contract's action names; it holds one line per action.
func turnLog() http.Handler {
	return editLog(func(m map[string]any, entries []any) {
		lines := []any{}
		for _, e := range entries {
			entry, _ := e.(map[string]any)
			lines = append(lines, fmt.Sprintf("T%v: %v", entry["turn"], entry["arg"]))
		}
		m["log"] = lines
	})
}

// Faithful logs in other shapes pass the full-log check: it is decided
// (not skipped) wherever the log names its actions or holds one entry per
// action.
func TestFaithfulLogsInOtherShapesPass(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]http.Handler{"renamed, comments apart": renamedLog(), "text lines": textLog(), "turn lines": turnLog()} {
		t.Run(name, func(t *testing.T) {
			rep := liveReport(t, h, -1, "PP-RUN-LOG-FULL")
			if got := failedChecks(rep); len(got) > 0 || rep.ExitCode() != 0 {
				t.Fatalf("exit %d, failures:\n%s", rep.ExitCode(), strings.Join(got, "\n"))
			}
			found := false
			for _, r := range rep.Results {
				found = found || r.Name == fullLogScenario
				// The log's own shape may warn under the kit's REFERENCE
				// shape (PP-RUN-LOG); every full-log check must be decided.
				if r.Status != verdict.Pass && (r.Status != verdict.Warn || r.FailedRule != "PP-RUN-LOG") {
					t.Errorf("%s: %s %s", r.Name, r.Status, r.Message)
				}
			}
			if !found {
				t.Errorf("the full-log scenario did not run")
			}
		})
	}
}

// judgeRunLog on hand-made logs: what it fails, passes and leaves unchecked.
func TestJudgeRunLog(t *testing.T) {
	t.Parallel()
	taken := []takenAction{{"look", ""}, {"read", "d2"}, {"comment", "日誌 x1"}, {"answer", "q1 裏取り不能 留保"}, {"publish", ""}}
	cases := []struct {
		name, log       string
		fails, unchecks bool
	}{
		{"the kit's shape", `{"log":[{"action":"look"},{"action":"read","arg":"d2"},{"action":"comment","arg":"日誌 x1"},{"action":"answer","arg":"q1 裏取り不能 留保"},{"action":"publish"}]}`, false, false},
		{"no publish", `{"log":[{"action":"look"},{"action":"read","arg":"d2"},{"action":"comment","arg":"日誌 x1"},{"action":"answer","arg":"q1"}]}`, true, false},
		{"no comment text", `{"log":[{"action":"look"},{"action":"read","arg":"d2"},{"action":"comment"},{"action":"answer","arg":"q1"},{"action":"publish"}]}`, true, false},
		{"the state alone holds the ID", `{"state":{"docs":["d2"]},"log":[{"action":"look"},{"action":"comment","arg":"日誌 x1"},{"action":"answer","arg":"q1"},{"action":"publish"}]}`, true, false},
		{"unnamed lines, one per action", `{"entries":["- d2","- 日誌 x1","- q1","-","-"]}`, false, false},
		{"unnamed lines, too few", `{"entries":["d2 日誌 x1 q1"]}`, false, true},
		{"publish apart", `{"log":[{"do":"look"},{"do":"read","on":"d2"},{"do":"comment","on":"日誌 x1"},{"do":"answer","on":"q1"}],"papers":[{"event":"publish"}]}`, false, false},
		{"not JSON", `<html>`, true, false},
	}
	for _, c := range cases {
		missing, unchecked := judgeRunLog([]byte(c.log), taken)
		if (missing != "") != c.fails || (unchecked != "") != c.unchecks {
			t.Errorf("%s: missing %q, unchecked %q; want fail %v, unchecked %v", c.name, missing, unchecked, c.fails, c.unchecks)
		}
	}
}

// statusLogged finds a status entry only in a log that names its actions.
func TestStatusLogged(t *testing.T) {
	t.Parallel()
	taken := []takenAction{{"read", "d2"}}
	for log, want := range map[string]bool{
		`{"log":[{"action":"read","arg":"d2"},{"action":"status"}]}`:    true,
		`{"log":[{"action":"read","arg":"d2"}],"state":{"x":"status"}}`: false,
		`{"log":["- d2","status"]}`:                                     false,
	} {
		if got := statusLogged([]byte(log), taken); got != want {
			t.Errorf("statusLogged(%s) = %v, want %v", log, got, want)
		}
	}
}
