package forge

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// sighting is one agent's view of its current level at one moment.
type sighting struct {
	who  string
	view *levelView
}

// clearInTurn reads both agents' current levels, clears the first agent's,
// reads again, then clears the second's: the views at each position can
// then be compared between agents and, for the second agent, over time.
func (w *world) clearInTurn(ctx context.Context) error {
	look := func(a *agent, who string) error {
		p, err := w.progress(ctx, a)
		if err != nil {
			return err
		}
		if p.CurrentLevel == nil {
			return verdict.Skipf("the chain ended before %s's level could be compared", who)
		}
		w.sightings = append(w.sightings, sighting{who: who, view: p.CurrentLevel})
		return nil
	}
	steps := []func() error{
		func() error { return look(w.me, "the first agent") },
		func() error { return look(w.other, "the second agent") },
		func() error { _, _, err := w.clear(ctx, w.me, 0); return err },
		func() error { return look(w.me, "the first agent") },
		func() error { return look(w.other, "the second agent") },
		func() error { _, _, err := w.clear(ctx, w.other, 0); return err },
		func() error { return look(w.other, "the second agent") },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// sameLevels judges the sightings clearInTurn took, in this order: the
// second agent's level must not change while it does nothing
// (FORGE-PUBLISHED-IMMUTABLE, or FORGE-CHAIN-LINEAR when another level took
// its position); both agents must meet the same level at positions 1 and 2
// (FORGE-CHAIN-LINEAR, or FORGE-PUBLISHED-IMMUTABLE when one level id shows
// two contents).
func (w *world) sameLevels() error {
	if len(w.sightings) != 5 {
		return verdict.Errorf("five sightings expected, got %d", len(w.sightings))
	}
	a1, b1, a2, b1again, b2 := w.sightings[0], w.sightings[1], w.sightings[2], w.sightings[3], w.sightings[4]
	if err := compareSightings(b1, b1again, "while it did nothing"); err != nil {
		return err
	}
	if err := compareSightings(a1, b1, "at the same moment"); err != nil {
		return err
	}
	return compareSightings(a2, b2, "after each cleared the level before")
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

func (w *world) readSchema(ctx context.Context) error {
	resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: "/spec/puzzle.schema.json"})
	w.Last = resp
	return err
}

// difficultyOptional: wherever the source schema describes a difficulty
// property it gives it a constraint and leaves it out of `required`
// (FORGE-LEGACY-DIFFICULTY-SCHEMA: optional-and-schema-validated).
func (w *world) difficultyOptional() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf("FORGE-DOC-SCHEMA", 200, w.Last.Status, "GET /spec/puzzle.schema.json without a key")
	}
	var doc any
	if json.Unmarshal(w.Last.Body, &doc) != nil {
		return verdict.Skipf("unchecked: /spec/puzzle.schema.json is not JSON")
	}
	found := 0
	var bad error
	walkObjects(doc, func(o map[string]any) {
		props, _ := o["properties"].(map[string]any)
		d, ok := props["difficulty"]
		if !ok || bad != nil {
			return
		}
		found++
		if req, _ := o["required"].([]any); containsValue(req, "difficulty") {
			bad = verdict.Failf("FORGE-LEGACY-DIFFICULTY-SCHEMA", "difficulty optional", "required", "the puzzle schema requires difficulty")
			return
		}
		if !constrains(d) {
			bad = verdict.Failf("FORGE-LEGACY-DIFFICULTY-SCHEMA", "difficulty schema-validated", d, "the puzzle schema puts no constraint on difficulty")
		}
	})
	if bad != nil {
		return bad
	}
	if found == 0 {
		// A hosted deployment removes difficulty before validation, so its
		// served schema may leave the field out: no reading is broken.
		return verdict.Skipf("unchecked: the served puzzle schema does not describe difficulty")
	}
	return nil
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
