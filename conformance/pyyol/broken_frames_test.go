package pyyol_test

import (
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// malformedGameFrames lists gateways whose Mafia or Monopoly frames do not
// fit spec/pyyol/frames, each with the rule the schema names: a turn view
// whose fields have the wrong shape, an event of the wrong shape.
func malformedGameFrames() []struct {
	rule string
	opts server.Options
} {
	monoView := func(edit func(v map[string]any)) server.Rewrite {
		return set("turn", "", func(f map[string]any) {
			if gameOf(f) == "monopoly" {
				edit(view(f))
			}
		})
	}
	state := func(v map[string]any) map[string]any { return v["state"].(map[string]any) }
	mafiaView := func(edit func(v map[string]any)) server.Rewrite {
		return set("turn", "", func(f map[string]any) {
			if gameOf(f) == "mafia" {
				edit(view(f))
			}
		})
	}
	return []struct {
		rule string
		opts server.Options
	}{
		// legal_actions a string, not a list: decoding alone would blame state.
		{"PYYOL-MONO-VIEW-LEGAL", server.Options{Rewrite: monoView(func(v map[string]any) { v["legal_actions"] = "roll" })}},
		{"PYYOL-MONO-VIEW-STATE", server.Options{Rewrite: monoView(func(v map[string]any) { state(v)["players"] = 4.0 })}},
		{"PYYOL-MONO-VIEW-STATE", server.Options{Rewrite: monoView(func(v map[string]any) { delete(state(v), "holdings") })}},
		{"PYYOL-MONO-VIEW-SEAT", server.Options{Rewrite: monoView(func(v map[string]any) { v["seat"] = "0" })}},
		{"PYYOL-MONO-VIEW-PHASE", server.Options{Rewrite: monoView(func(v map[string]any) { delete(v, "phase") })}},
		{"PYYOL-MONO-EVENTS", server.Options{Rewrite: set("event", "dice_rolled", func(f map[string]any) { f["payload"] = []any{3.0, 4.0} })}},
		// A Mafia view whose alive is a list, not {seat: bool}: the Mafia
		// steps read past it, the schema does not. (A Mafia frame's schema
		// failure is a finding, so where the steps fail first they name
		// their own rule: a day of "one" is read as day 0 and blamed on
		// PYYOL-MAFIA-LEGAL, an undocumented action on PYYOL-MAFIA-ACTIONS.)
		{"PYYOL-MAFIA-VIEW", server.Options{Rewrite: mafiaView(func(v map[string]any) { v["alive"] = []any{true, true} })}},
	}
}

// TestMalformedGameFramesAreCaught: each gateway sending a malformed
// Monopoly or Mafia frame, checked live over loopback, fails naming the
// rule the frame's schema annotates.
func TestMalformedGameFramesAreCaught(t *testing.T) {
	t.Parallel()
	catchBrokenGateways(t, malformedGameFrames(), 600*time.Millisecond)
}
