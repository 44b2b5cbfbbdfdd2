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
	// checked against a platform, so it is never uncovered here: its
	// scenarios live in the folder's AgentFile (see CoverAgents).
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

// AgentCoverage matches a catalogue's rules for agents to the scenarios of
// the folder's AgentFile.
type AgentCoverage struct {
	// Uncovered are catalogued rules for agents no agent scenario names.
	Uncovered []string
	// Misplaced are agent scenarios ("file:line reason") that name a rule
	// the catalogue lacks or a platform rule, or lack the @agent tag that
	// keeps conformance run from ever selecting them.
	Misplaced []string
}

// CoverAgents computes the coverage of cat's rules for agents by the
// scenarios of the folder's AgentFile (ParseAgentsFS).
func CoverAgents(cat *spec.Catalogue, scenarios []Scenario) AgentCoverage {
	var c AgentCoverage
	covered := map[string]bool{}
	for _, s := range scenarios {
		where := s.File + ":" + strconv.FormatInt(s.Line, 10)
		if !s.HasTag("agent") {
			c.Misplaced = append(c.Misplaced, where+" has no @agent tag")
		}
		for _, tag := range s.Tags {
			id := strings.TrimPrefix(tag, "@")
			if !spec.IDPattern.MatchString(id) {
				continue
			}
			r, ok := cat.Rule(id)
			switch {
			case !ok:
				c.Misplaced = append(c.Misplaced, where+" names "+id+", which the catalogue lacks")
			case !r.ForAgents():
				c.Misplaced = append(c.Misplaced, where+" names "+id+", a platform rule")
			default:
				covered[id] = true
			}
		}
	}
	for _, r := range cat.Rules {
		if r.ForAgents() && !covered[r.ID] {
			c.Uncovered = append(c.Uncovered, r.ID)
		}
	}
	sort.Strings(c.Misplaced)
	return c
}
