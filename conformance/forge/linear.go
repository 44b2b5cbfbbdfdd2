package forge

import (
	"github.com/agentgames/conformance/conformance/verdict"
)

// sighting is one agent's view of its current level at one moment.
type sighting struct {
	who  string
	view *levelView
}

// compareSightings compares two views of one position. Different level ids
// are different levels; one id with different contents is a changed
// level; without ids, different contents at one position are different
// levels (two agents) or a changed level (one agent over time).
func compareSightings(x, y sighting, when string) error {
	if x.view.Position != y.view.Position {
		return nil // FORGE-PROGRESS and FORGE-SUBMIT-ADVANCES judge the positions
	}
	ids := x.view.LevelID != "" && y.view.LevelID != ""
	content := levelContent(x.view) != levelContent(y.view)
	sameAgent := x.who == y.who
	switch {
	case ids && x.view.LevelID != y.view.LevelID:
		return verdict.Failf("FORGE-CHAIN-LINEAR", x.view.LevelID, y.view.LevelID,
			"position %d showed %s and %s different levels %s", x.view.Position, x.who, y.who, when)
	case !content:
		return nil
	case ids || sameAgent:
		return verdict.Failf("FORGE-PUBLISHED-IMMUTABLE", x.view.Title, y.view.Title,
			"the level at position %d showed %s and %s different contents %s", x.view.Position, x.who, y.who, when)
	}
	return verdict.Failf("FORGE-CHAIN-LINEAR", x.view.Title, y.view.Title,
		"position %d showed %s and %s different levels %s", x.view.Position, x.who, y.who, when)
}

// levelContent is what names a level's content: its title and rules. The
// examples are left out, since a deployment might draw them per agent.
func levelContent(v *levelView) string {
	return v.Title + "\x00" + v.Rules
}

// walkObjects calls f on every JSON object inside v.
func walkObjects(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, c := range x {
			walkObjects(c, f)
		}
	case []any:
		for _, c := range x {
			walkObjects(c, f)
		}
	}
}

func containsValue(list []any, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// annotations are JSON Schema keywords that describe without validating.
var annotations = map[string]bool{"title": true, "description": true, "$comment": true, "deprecated": true,
	"examples": true, "default": true, "readOnly": true, "writeOnly": true}

// constrains reports whether a property schema validates anything: an
// object with at least one keyword that is not an annotation.
func constrains(schema any) bool {
	o, ok := schema.(map[string]any)
	if !ok {
		return false
	}
	for k := range o {
		if !annotations[k] {
			return true
		}
	}
	return false
}
