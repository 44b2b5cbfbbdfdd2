package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// writeTranscript writes a finding's transcript under its "transcript:"
// heading. When the transcript is shortened, a line above the exchanges
// says how many are left out and where the whole transcript is, and a
// second names the field of the wire that holds what the check observed
// (differingField), so a reader sees the cause without the exchanges
// that were folded away.
func writeTranscript(w io.Writer, res verdict.Result) {
	if len(res.Transcript) == 0 {
		return
	}
	fmt.Fprintln(w, "  transcript:")
	if shown := shownCount(shortTranscript(res.Transcript)); shown < len(res.Transcript) {
		fmt.Fprintf(w, "    %d of %d exchanges shown; all of them: %s\n", shown, len(res.Transcript), wholeTranscriptAt(res))
		if d := differingField(res); d != "" {
			fmt.Fprintf(w, "    differing field: %s\n", d)
		}
	}
	fmt.Fprint(w, transcriptText(res.Transcript, "    "))
}

// shownCount is how many exchanges a shortened transcript prints in full:
// a folded run of identical exchanges and a gap are not shown.
func shownCount(short []shownExchange) int {
	n := 0
	for _, s := range short {
		if s.gap == 0 {
			n++
		}
	}
	return n
}

// wholeTranscriptAt says where a shortened transcript can be read whole:
// the case file of a fail or error (it keeps every exchange), else the
// JSON report.
func wholeTranscriptAt(res verdict.Result) string {
	if res.CaseFile != "" {
		return "the case file " + printable(res.CaseFile) + " and the JSON report"
	}
	return "the JSON report (--json)"
}

// differingField names where on the wire a finding's observed value
// stands in the last exchange, where a check meets what it judges: the
// status code when the observed value is that exchange's status, else the
// response body field whose value reads as the observed value. It is
// empty when the finding has no expected/observed pair or the last
// exchange does not hold the value, so the line points at evidence the
// reader can see, never at a guess among earlier exchanges.
func differingField(res verdict.Result) string {
	if res.Expected == "" || res.Observed == "" || len(res.Transcript) == 0 {
		return ""
	}
	at := len(res.Transcript)
	last := res.Transcript[at-1]
	want, got := oneLine(res.Expected, 60), oneLine(res.Observed, 60)
	if code, ok := statusIn(res.Observed); ok && last.Status == code {
		return fmt.Sprintf("status: expected %s, observed %s (exchange %d)", want, got, at)
	}
	if path := fieldHolding(last.RespBody, res.Observed); path != "" {
		return fmt.Sprintf("response field %s: expected %s, observed %s (exchange %d)", printable(path), want, got, at)
	}
	return ""
}

// statusIn reads an observed value that is an HTTP status code, alone or
// before its error code ("409 already_solved").
func statusIn(observed string) (int, bool) {
	head, _, _ := strings.Cut(strings.TrimSpace(observed), " ")
	n, err := strconv.Atoi(head)
	return n, err == nil && len(head) == 3 && n >= 100 && n <= 599
}

// fieldHolding returns the JSON path (e.g. "state.turns", "items[2].id")
// of the first field in body, in key order, whose scalar value reads as
// observed; empty when body is no JSON or holds no such value.
func fieldHolding(body, observed string) string {
	var v any
	if body == "" || json.Unmarshal([]byte(body), &v) != nil {
		return ""
	}
	return findValue(v, "", strings.TrimSpace(observed))
}

// findValue walks a decoded JSON value depth first for a scalar whose
// text is want and returns its path.
func findValue(v any, path, want string) string {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p := findValue(t[k], joinPath(path, k), want); p != "" {
				return p
			}
		}
	case []any:
		for i, x := range t {
			if p := findValue(x, fmt.Sprintf("%s[%d]", path, i), want); p != "" {
				return p
			}
		}
	default:
		if path != "" && scalarText(t) == want {
			return path
		}
	}
	return ""
}

// joinPath appends a key to a dotted JSON path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// scalarText is a JSON scalar as fmt.Sprint writes the Go value a check
// observed: strings bare, numbers without exponent, true/false; null
// matches nothing.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	return "\x00"
}
