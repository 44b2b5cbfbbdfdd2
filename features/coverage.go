package features

import (
	"sort"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/spec"
)

// Coverage matches a catalogue to the scenarios that check it.
type Coverage struct {
	// ByRule lists, for every catalogued rule, the scenarios tagged with it.
	ByRule map[string][]Scenario
	// Uncovered are catalogued platform rules no scenario checks; a rule
	// for agents is audited by the reference servers (serve --audit), not
	// checked by a scenario, so it is never uncovered.
	Uncovered []string
	// Unknown are rule-shaped tags that name no catalogued rule, with the
	// scenario citing them ("file:line TAG").
	Unknown []string
}

// Cover computes the coverage of cat by scenarios.
func Cover(cat *spec.Catalogue, scenarios []Scenario) Coverage {
	c := Coverage{ByRule: map[string][]Scenario{}}
	for _, r := range cat.Rules {
		c.ByRule[r.ID] = nil
	}
	for _, s := range scenarios {
		c.addScenario(s)
	}
	for _, r := range cat.Rules {
		if len(c.ByRule[r.ID]) == 0 && !r.ForAgents() {
			c.Uncovered = append(c.Uncovered, r.ID)
		}
	}
	sort.Strings(c.Unknown)
	return c
}

func (c *Coverage) addScenario(s Scenario) {
	for _, tag := range s.Tags {
		id := strings.TrimPrefix(tag, "@")
		if !spec.IDPattern.MatchString(id) {
			continue
		}
		if _, known := c.ByRule[id]; !known {
			c.Unknown = append(c.Unknown, s.File+":"+strconv.FormatInt(s.Line, 10)+" "+id)
			continue
		}
		c.ByRule[id] = append(c.ByRule[id], s)
	}
}
