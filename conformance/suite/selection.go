package suite

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/features"
)

// The selection of one protocol run: which scenarios and properties the
// tags, rules and shard keep, and the passes they run in.

// selectedScenarios lists the scenarios the tag selection keeps, to size the
// progress display.
func (pr *protocolRun) selectedScenarios() ([]features.Scenario, error) {
	all, err := pr.p.scenarios()
	if err != nil {
		return nil, err
	}
	pr.feature = map[string]string{}
	parsed := map[string]int{}
	match, _ := parseTags(selection(pr.cfg.Tags, pr.cfg.Rules))
	var out []features.Scenario
	var keys []string
	for _, s := range all {
		pr.feature[s.File] = s.Feature
		key := nextKey(parsed, s.File, s.Name)
		if !pr.keeps(s, match) {
			continue
		}
		pr.matched++
		pr.wholeScenarios = append(pr.wholeScenarios, s)
		if len(pr.cfg.Scenarios) > 0 || pr.inShard() {
			out, keys = append(out, s), append(keys, key)
		}
	}
	pr.passes = pr.plan(out, keys)
	return out, nil
}

// plan splits the selected scenarios into passes. Against a live target
// the first pass holds one scenario per MUST rule and the second one per
// remaining rule, so a quota or --max-writes budget that runs out still
// leaves the binding rules checked first; the last pass runs the rest. The
// embedded reference runs one pass in file order.
func (pr *protocolRun) plan(scenarios []features.Scenario, keys []string) []map[string]string {
	passes := []map[string]string{{}, {}, {}}
	placed := make([]bool, len(scenarios))
	covered := map[string]bool{}
	for pass, must := range []bool{true, false} {
		for i, s := range scenarios {
			if !placed[i] && (pr.ref != nil || pr.addsCoverage(s, covered, must)) {
				passes[pass][keys[i]], placed[i] = fmt.Sprintf("%s:%d", s.File, s.Line), true
			}
		}
	}
	for i, s := range scenarios {
		if !placed[i] {
			passes[2][keys[i]] = fmt.Sprintf("%s:%d", s.File, s.Line)
		}
	}
	return passes
}

// addsCoverage reports whether s checks a rule (a MUST rule, when mustOnly)
// no scenario placed before it checks, and marks its rules covered if so.
func (pr *protocolRun) addsCoverage(s features.Scenario, covered map[string]bool, mustOnly bool) bool {
	fresh := false
	for _, t := range s.Tags {
		id := strings.TrimPrefix(t, "@")
		if r, ok := pr.cat.Rule(id); ok && !covered[id] && (!mustOnly || r.Level == verdict.Must) {
			fresh = true
		}
	}
	if fresh {
		for _, t := range s.Tags {
			covered[strings.TrimPrefix(t, "@")] = true
		}
	}
	return fresh
}

func (pr *protocolRun) keeps(s features.Scenario, match tagExpr) bool {
	if len(pr.cfg.Scenarios) > 0 {
		return containsString(pr.cfg.Scenarios, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	tags := map[string]bool{}
	for _, t := range s.Tags {
		tags[t] = true
	}
	return match(tags)
}

func (pr *protocolRun) selectedProperties() []Property {
	if pr.cfg.Checks < 0 || pr.cfg.NoProperties || len(pr.cfg.Scenarios) > 0 {
		return nil
	}
	var out []Property
	for _, prop := range pr.p.Properties {
		if !pr.selectsProperty(prop) {
			continue
		}
		pr.matched++
		pr.wholeProps = append(pr.wholeProps, prop)
		if pr.inShard() {
			out = append(out, prop)
		}
	}
	return out
}

// selectsProperty applies --rule and --tags to a property exactly as to a
// scenario tagged @property, its protocol and its rules.
func (pr *protocolRun) selectsProperty(prop Property) bool {
	match, _ := parseTags(selection(pr.cfg.Tags, pr.cfg.Rules))
	tags := map[string]bool{"@property": true, "@" + pr.p.Name: true}
	for _, id := range prop.Rules {
		tags["@"+id] = true
	}
	return match(tags)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// discard is where godog's own formatter output goes: the kit renders its
// own reports from the result records.
var discard io.Writer = io.Discard
