package baseline

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Known is every name a baseline entry may use: the rule IDs of every
// protocol's catalogue and, per protocol, the names of its checks
// (scenarios and properties).
type Known struct {
	Rules  []string
	Checks map[string][]string // protocol -> check names
}

// Check refuses the entries that name no known rule, protocol or check:
// such an entry can never match a failure, so it would be silently
// ignored (a typo would keep a known failure failing, or hide that it was
// fixed). Each error names the entry and the nearest known name.
func (f *File) Check(k Known) error {
	rules := map[string]bool{}
	for _, id := range k.Rules {
		rules[id] = true
	}
	var errs []error
	for i, e := range f.KnownFailures {
		if msg := k.unknown(e, rules); msg != "" {
			errs = append(errs, fmt.Errorf("entry %d (%s): %s", i+1, e.Key(), msg))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	return nil
}

// unknown says what in e is not a known name, or "".
func (k Known) unknown(e verdict.BaselineEntry, rules map[string]bool) string {
	switch {
	case e.Rule != "" && !rules[e.Rule]:
		return fmt.Sprintf("no protocol catalogues rule %s (see conformance rules)%s", e.Rule, suggest(e.Rule, k.Rules))
	case e.Rule != "":
		return ""
	}
	checks, ok := k.Checks[e.Protocol]
	if !ok {
		var names []string
		for p := range k.Checks {
			names = append(names, p)
		}
		sort.Strings(names)
		return fmt.Sprintf("unknown protocol %q%s", e.Protocol, suggest(e.Protocol, names))
	}
	for _, c := range checks {
		if c == e.Check {
			return ""
		}
	}
	return fmt.Sprintf("%s has no check named %q%s", e.Protocol, e.Check, suggest(e.Check, checks))
}

// suggest is "; did you mean X?" for the known name nearest to name by
// edit distance (case ignored), or "" when there is none.
func suggest(name string, known []string) string {
	best, dist := "", -1
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), strings.ToLower(k)); dist < 0 || d < dist || (d == dist && k < best) {
			best, dist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance between a and b in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
