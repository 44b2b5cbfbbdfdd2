package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The public run log is the full log (PP-RUN-LOG-FULL: Full run log) and
// status alone is left out of it (action_list: status "not logged"). The
// contract fixes neither the log's fields nor its entries' shape, so the
// check here relies on none of the kit's names: it looks for what each
// action is about (the IDs its argument names, a comment's own text)
// anywhere in the log, finds the log's entry list as the array that
// mentions the most of them, and counts the actions of each kind there by
// the contract's own action names. A log that names no action and holds
// too few entries to tell is reported unchecked, never failed.

// takenAction is one accepted action of the agent's.
type takenAction struct{ Action, Arg string }

// needles are the texts a record of the action must mention: the document,
// witness and topic, or question its argument names, or a comment's text.
// look and publish take no argument and have none.
func (a takenAction) needles() []string {
	f := engine.Fields(a.Arg)
	switch a.Action {
	case engine.ActRead, engine.ActAnswer:
		if len(f) > 0 {
			return f[:1]
		}
	case engine.ActInterview:
		if len(f) > 2 {
			return f[:2]
		}
		return f
	case engine.ActComment:
		if t := strings.TrimSpace(a.Arg); t != "" {
			return []string{t}
		}
	}
	return nil
}

// recordTaken remembers an action the target accepted (ok:true), which its
// public log must then record unless it is status.
func (w *world) recordTaken(action, arg string) {
	if action != engine.ActStatus {
		w.taken = append(w.taken, takenAction{Action: action, Arg: arg})
	}
}

// statusLogged reports whether a log that names its actions has an entry
// naming status; a log naming nothing cannot tell.
func statusLogged(body []byte, taken []takenAction) bool {
	var v map[string]any
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	delete(v, "state")
	entries := entryList(arraysIn(v), taken)
	return namesItsActions(entries, taken) && countNamed(entries, engine.ActStatus) > 0
}

// fetchRawLog reads the public log into w.Body() without decoding it into the
// kit's shape: the full-log checks need none, so a log in another shape
// is still judged (a REFERENCE shape never ends a MUST check).
func (w *world) fetchRawLog(ctx context.Context) error {
	resp, err := w.do(ctx, http.MethodGet, "/runs/"+w.run, "", nil, nil)
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK {
		return verdict.Failf("PP-RUN-LOG-FULL", 200, resp.Status, "GET /runs/%s: %s", w.run, clip(resp.Body))
	}
	return nil
}

// judgeRunLog returns what the log misses of the actions taken, or, when
// the log's shape cannot tell, why the check is unchecked; both empty when
// every action is there.
func judgeRunLog(body []byte, taken []takenAction) (missing, unchecked string) {
	var v map[string]any
	if json.Unmarshal(body, &v) != nil {
		return "the public log is not a JSON object", ""
	}
	delete(v, "state") // the run's state lists every ID of its case whatever was done
	all := stringsIn(v)
	for _, a := range taken {
		for _, n := range a.needles() {
			if !anyContains(all, n) {
				return fmt.Sprintf("the %s of %q is not in the public log", a.Action, n), ""
			}
		}
	}
	arrays := arraysIn(v)
	entries := entryList(arrays, taken)
	want, kinds := expectedCounts(entries, taken)
	named := namesItsActions(entries, taken)
	total := 0
	for _, k := range kinds {
		total += want[k]
		if countNamed(entries, k) >= want[k] {
			continue
		}
		if countNamedObjects(arrays, k) >= want[k] {
			continue // recorded beside the entry list
		}
		if named {
			return fmt.Sprintf("the log's entries name %d %s, the agent took %d", countNamed(entries, k), k, want[k]), ""
		}
		unchecked = fmt.Sprintf("the log names no action, so its %s entries cannot be counted", k)
	}
	if unchecked != "" && len(entries) >= total {
		return "", "" // enough entries to hold every action, which is all a log without names shows
	}
	return "", unchecked
}

// expectedCounts counts, per action kind, the actions the entry list must
// name: every look and publish, and every action whose needles an entry
// mentions (one recorded elsewhere was found among all the strings). kinds
// lists the kinds in the order first taken.
func expectedCounts(entries []any, taken []takenAction) (map[string]int, []string) {
	want := map[string]int{}
	var kinds []string
	for _, a := range taken {
		if len(a.needles()) > 0 && entryMentioning(entries, a.needles()) == nil {
			continue
		}
		if _, ok := want[a.Action]; !ok {
			kinds = append(kinds, a.Action)
		}
		want[a.Action]++
	}
	return want, kinds
}

// entryList is the log's list of entries: of every array in the log, the
// one whose elements mention the most of the actions' needles (the longer
// on a tie); nil when none mentions any.
func entryList(arrays [][]any, taken []takenAction) []any {
	var best []any
	bestScore := 0
	for _, arr := range arrays {
		score := 0
		for _, a := range taken {
			if n := a.needles(); len(n) > 0 && entryMentioning(arr, n) != nil {
				score++
			}
		}
		if score > bestScore || (score == bestScore && score > 0 && len(arr) > len(best)) {
			best, bestScore = arr, score
		}
	}
	return best
}

// entryMentioning returns the first element of entries that mentions every
// needle, or nil.
func entryMentioning(entries []any, needles []string) any {
	for _, e := range entries {
		strs := stringsIn(e)
		ok := true
		for _, n := range needles {
			ok = ok && anyContains(strs, n)
		}
		if ok {
			return e
		}
	}
	return nil
}

// namesItsActions reports whether the entry list spells actions by the
// contract's names: some entry names a taken action and mentions what that
// action was about. A log that spells one action so is read as spelling
// them all so, and its entries are counted by name.
func namesItsActions(entries []any, taken []takenAction) bool {
	for _, a := range taken {
		n := a.needles()
		if len(n) > 0 && anyEntry(entries, func(e any) bool { return names(e, a.Action) && entryMentioning([]any{e}, n) != nil }) {
			return true
		}
	}
	return false
}

func anyEntry(entries []any, ok func(any) bool) bool {
	for _, e := range entries {
		if ok(e) {
			return true
		}
	}
	return false
}

// names reports whether an entry names action: an object with a field whose
// value is the action's name, or a text whose first word is.
func names(entry any, action string) bool {
	switch x := entry.(type) {
	case map[string]any:
		for _, v := range x {
			if s, ok := v.(string); ok && strings.EqualFold(strings.TrimSpace(s), action) {
				return true
			}
		}
	case string:
		f := strings.Fields(x)
		return len(f) > 0 && strings.EqualFold(strings.Trim(f[0], ":[]()"), action)
	}
	return false
}

// countNamed counts the entries that name action.
func countNamed(entries []any, action string) int {
	n := 0
	for _, e := range entries {
		if names(e, action) {
			n++
		}
	}
	return n
}

// countNamedObjects counts the objects in any array that name action.
func countNamedObjects(arrays [][]any, action string) int {
	n := 0
	for _, arr := range arrays {
		for _, e := range arr {
			if _, ok := e.(map[string]any); ok && names(e, action) {
				n++
			}
		}
	}
	return n
}

// arraysIn lists every array inside a decoded JSON value.
func arraysIn(v any) [][]any {
	switch x := v.(type) {
	case []any:
		out := [][]any{x}
		for _, e := range x {
			out = append(out, arraysIn(e)...)
		}
		return out
	case map[string]any:
		var out [][]any
		for _, e := range x {
			out = append(out, arraysIn(e)...)
		}
		return out
	}
	return nil
}

func anyContains(list []string, needle string) bool {
	for _, s := range list {
		if strings.Contains(s, needle) {
			return true
		}
	}
	return false
}
