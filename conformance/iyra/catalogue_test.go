package iyra_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// seedPath finds the source contract beside the repository (shared/ is a
// sibling of the work tree locally and in CI).
func seedPath(name string) string {
	for _, dir := range []string{"../../../shared/seeds", "../../shared/seeds", "/work/shared/seeds"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// pathStep is one step of a catalogue path: an object key or an array index.
var pathStep = regexp.MustCompile(`^(?:\.([A-Za-z0-9_]+)|\[(\d+)\])`)

// valueAt returns the raw JSON text at a path such as
// $.game.gameplay_contract.play.state_semantics[6], as the seed spells it.
func valueAt(doc json.RawMessage, path string) (json.RawMessage, error) {
	if !strings.HasPrefix(path, "$") {
		return nil, fmt.Errorf("path %q does not start with $", path)
	}
	cur, rest := doc, path[1:]
	for rest != "" {
		m := pathStep.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("path %q: cannot read %q", path, rest)
		}
		rest = rest[len(m[0]):]
		if m[1] != "" {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, fmt.Errorf("path %q: %s is not inside an object", path, m[1])
			}
			next, ok := obj[m[1]]
			if !ok {
				return nil, fmt.Errorf("path %q: no key %s", path, m[1])
			}
			cur = next
			continue
		}
		var arr []json.RawMessage
		i, _ := strconv.Atoi(m[2])
		if err := json.Unmarshal(cur, &arr); err != nil || i >= len(arr) {
			return nil, fmt.Errorf("path %q: no element %d", path, i)
		}
		cur = arr[i]
	}
	return cur, nil
}

// quoteFits reports whether quote is the contract's words at raw: a
// substring of a string value, or of the seed's own spelling of any other
// value (an object or array quoted in part).
func quoteFits(raw json.RawMessage, quote string) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.Contains(s, quote)
	}
	return strings.Contains(string(raw), quote)
}

// TestCatalogueQuotesTheSeed checks every rule carries the IYRA- prefix and
// quotes the contract's own words at the JSON path it gives.
func TestCatalogueQuotesTheSeed(t *testing.T) {
	cat, err := spec.Load("iyra")
	if err != nil {
		t.Fatal(err)
	}
	p := seedPath(cat.Seed)
	if p == "" {
		t.Skipf("source contract %s not found beside the repository", cat.Seed)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cat.Rules {
		if !strings.HasPrefix(r.ID, "IYRA-") {
			t.Errorf("%s lacks the IYRA- prefix", r.ID)
		}
		v, err := valueAt(raw, r.Path)
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		if !quoteFits(v, r.Quote) {
			t.Errorf("%s: quote %q is not the contract's words at %s (%s)", r.ID, r.Quote, r.Path, clipText(string(v)))
		}
	}
	if _, ok := cat.Rule("IYRA-OPENAPI"); !ok {
		t.Error("the catalogue lacks IYRA-OPENAPI")
	}
}

// TestQuoteCheckRejectsMisplacedQuotes proves the quote check can fail: a
// quote from elsewhere in the seed, or a "key":value quote whose path
// points at the value, does not fit.
func TestQuoteCheckRejectsMisplacedQuotes(t *testing.T) {
	doc := json.RawMessage(`{"a":{"limits":{"max_steps":9},"notice":"Hashes identify the version."},"b":["x y z"]}`)
	cases := []struct {
		path, quote string
		fits        bool
	}{
		{"$.a.notice", "identify the version", true},
		{"$.a.notice", "x y", false},
		{"$.a.limits", `{"max_steps":9}`, true},
		{"$.a.limits", `"limits":{"max_steps":9}`, false},
		{"$.b[0]", "y z", true},
	}
	for _, c := range cases {
		v, err := valueAt(doc, c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if got := quoteFits(v, c.quote); got != c.fits {
			t.Errorf("%s %q: fits %v, want %v", c.path, c.quote, got, c.fits)
		}
	}
	if _, err := valueAt(doc, "$.a.missing"); err == nil {
		t.Error("a missing key resolved")
	}
}

// clipText shortens a value for a test message.
func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// ruleID matches a rule ID in source text; "IYRA-" alone (a prefix test)
// is not one.
var ruleID = regexp.MustCompile(`IYRA(?:-[A-Z0-9]+)+`)

// citations returns every rule ID cited in the Go files under dir, with
// the first place each is cited.
func citations(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, id := range ruleID.FindAllString(line, -1) {
				if _, seen := out[id]; !seen {
					out[id] = fmt.Sprintf("%s:%d", path, i+1)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCitedRulesExist requires every rule ID cited in the reference and
// the runner, in comments and failures alike, to be catalogued (an unknown
// ID would count as MUST and never match a feature), and every catalogued
// rule to be cited by the reference code that implements it.
func TestCitedRulesExist(t *testing.T) {
	cat, err := spec.Load("iyra")
	if err != nil {
		t.Fatal(err)
	}
	reference := citations(t, "../../reference/iyra")
	runner := citations(t, ".")
	for _, cited := range []map[string]string{reference, runner} {
		for id, where := range cited {
			if _, ok := cat.Rule(id); !ok {
				t.Errorf("%s cites %s, which the catalogue does not have", where, id)
			}
		}
	}
	var uncited []string
	for _, r := range cat.Rules {
		if _, ok := reference[r.ID]; !ok {
			uncited = append(uncited, r.ID)
		}
	}
	sort.Strings(uncited)
	if len(uncited) > 0 {
		t.Errorf("rules no reference code cites: %v", uncited)
	}
}

// TestEveryRuleHasAScenario requires each catalogued rule to head a Rule
// block with scenarios, and every scenario tag to name a catalogued rule.
func TestEveryRuleHasAScenario(t *testing.T) {
	cat, err := spec.Load("iyra")
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := features.Parse("iyra")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]int{}
	for _, s := range scenarios {
		if !s.HasTag("iyra") {
			t.Errorf("%s: %s is not tagged @iyra", s.File, s.Name)
		}
		for _, tag := range s.Tags {
			id := strings.TrimPrefix(tag, "@")
			if !strings.HasPrefix(id, "IYRA-") {
				continue
			}
			if _, ok := cat.Rule(id); !ok {
				t.Errorf("%s:%d cites unknown rule %s", s.File, s.Line, id)
			}
			covered[id]++
		}
	}
	for _, r := range cat.Rules {
		if covered[r.ID] == 0 {
			t.Errorf("rule %s has no scenario", r.ID)
		}
	}
}
