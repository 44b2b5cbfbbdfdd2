package phantompress

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// mutantCases are bugs once planted in the reference's source that a live
// run missed or named under another rule; each is kept here, rebuilt as a
// broken target, so it stays caught under its own rule.
var mutantCases = tamperTable("planted source bugs", func() []harness.Case {
	return []harness.Case{
		{Name: "a read or interview with exactly its AP cost left is refused", Rule: "PP-AP-INSUFFICIENT", Target: exactCostRefused()},
		{Name: "a trapped document's title names its trap", Rule: "PP-HIDE-BEFORE-PUBLISH", Target: trapInTitle()},
		{Name: "the leaderboard sorted by rising score", Rule: "PP-LEADERBOARD", Target: answersTo(http.MethodGet, "/leaderboard", func(_ *http.Request, _ *int, m map[string]any) {
			es := asList(m["entries"])
			for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
				es[i], es[j] = es[j], es[i]
			}
			for i, e := range es {
				if row, ok := e.(map[string]any); ok {
					row["rank"] = i + 1
				}
			}
		})},
		{Name: "a budget of exactly 200 turns refused", Rule: "PP-RUN-BUDGET-REQUIRED", Target: bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
			if b, ok := m["budget_turns"].(float64); ok && b == 200 {
				m["budget_turns"] = 201
			}
		})},
		{Name: "a name of exactly 32 characters refused", Rule: "PP-REGISTER", Target: bodyEdit(http.MethodPost, "/register", func(m map[string]any) {
			if n, ok := m["name"].(string); ok && utf8.RuneCountInString(n) == 32 {
				m["name"] = n + "x"
			}
		})},
		{Name: "a review of exactly 2000 characters refused", Rule: "PP-REVIEW", Target: bodyEdit(http.MethodPost, "/review", func(m map[string]any) {
			if t, ok := m["text"].(string); ok && utf8.RuneCountInString(t) >= 2000 {
				m["text"] = t + "。"
			}
		})},
	}
})

// exactCostRefused compares AP with > instead of >=: with exactly a read's
// or an interview's cost left, the reference is handed a read of no
// document instead, which it refuses ok:false.
func exactCostRefused() http.Handler {
	var mu sync.Mutex
	ap := map[string]float64{}
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		if !isAction(r) {
			return body
		}
		var in map[string]any
		json.Unmarshal(body, &in)
		mu.Lock()
		left, known := ap[runOfPath(r.URL.Path)]
		mu.Unlock()
		if known && ((in["action"] == engine.ActRead && left == engine.APRead) || (in["action"] == engine.ActInterview && left == engine.APInterview)) {
			return []byte(`{"action":"read","arg":"d99"}`)
		}
		return body
	}, func(r *http.Request, _ *int, m map[string]any) {
		if st, ok := m["state"].(map[string]any); ok {
			if a, ok := st["ap"].(float64); ok {
				mu.Lock()
				ap[runOfState(m)] = a
				mu.Unlock()
			}
		}
	})
}

// trapInTitle appends each trapped document's trap to its listed title
// before publish: the trap's name leaks inside a longer text.
func trapInTitle() http.Handler {
	ref := ppRef()
	return harness.Wrap(ref, nil, func(r *http.Request, _ *int, m map[string]any) {
		st, ok := m["state"].(map[string]any)
		if !ok {
			return
		}
		run, _ := st["run_id"].(string)
		rv, ok := ref.RevealOf(run)
		if !ok {
			return
		}
		c, _ := st["case"].(map[string]any)
		for _, d := range asList(c["documents"]) {
			doc, _ := d.(map[string]any)
			for _, t := range rv.Traps {
				if id, _ := doc["id"].(string); id == t.Document && !strings.Contains(str(doc["title"]), t.Trap) {
					doc["title"] = str(doc["title"]) + "（" + t.Trap + "）"
				}
			}
		}
	})
}

// TestPlantedSourceBugsAreCaught runs each planted bug's broken target.
func TestPlantedSourceBugsAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, mutantCases())
}
