package report

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// findingGroup is findings with one root cause: the first is printed in
// full, the others only named.
type findingGroup struct {
	first verdict.Result
	rest  []verdict.Result
}

// volatile matches the parts of a message that differ between checks with
// one root cause: URLs, paths, quoted values and numbers.
var volatile = regexp.MustCompile(`https?://\S+|/[^\s"']*|"[^"]*"|[0-9a-f]{8,}|\d+`)

// causeKey is what findings with one root cause share: status, blamed rule
// and the message with its volatile parts blanked.
func causeKey(res verdict.Result) string {
	msg := res.Message
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return string(res.Status) + "\x00" + res.FailedRule + "\x00" + volatile.ReplaceAllString(msg, "…")
}

// groupFindings folds findings with one root cause, keeping their order.
func groupFindings(results []verdict.Result) []*findingGroup {
	var groups []*findingGroup
	byKey := map[string]*findingGroup{}
	for _, res := range results {
		key := causeKey(res)
		if g, ok := byKey[key]; ok && res.Message != "" {
			g.rest = append(g.rest, res)
			continue
		}
		g := &findingGroup{first: res}
		byKey[key] = g
		groups = append(groups, g)
	}
	return groups
}

// writeSameCause names the other checks of a group in one line.
func writeSameCause(w io.Writer, g *findingGroup) {
	if len(g.rest) == 0 {
		return
	}
	var names []string
	for i, res := range g.rest {
		if i == 3 {
			names = append(names, "…")
			break
		}
		names = append(names, checkName(res))
	}
	fmt.Fprintf(w, "  same cause: %d more %s checks (%s)\n", len(g.rest), strings.ToUpper(string(g.first.Status)), strings.Join(names, "; "))
}
