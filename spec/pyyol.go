package spec

import (
	"embed"
	"slices"
	"strings"
	"sync"
)

//go:embed pyyol/frames/*.json
var frameFiles embed.FS

// PyyolFrameSchema returns the JSON Schema of one Pyyol socket frame type
// ("turn", "event", ...) or of one game's part ("goofspiel-view",
// "mafia-move", "monopoly-event", ...).
func PyyolFrameSchema(name string) ([]byte, error) {
	return frameFiles.ReadFile("pyyol/frames/" + name + ".json")
}

// PyyolFrameTypes lists the frame types that have a schema: every schema
// but the games' parts, whose names are game-part.
func PyyolFrameTypes() []string { return slices.Clone(pyyolFrameTypes()) }

// IsPyyolFrameType reports whether t is a frame type with a schema, without
// a copy of the list.
func IsPyyolFrameType(t string) bool { return slices.Contains(pyyolFrameTypes(), t) }

// pyyolFrameTypes reads the frame types once: the runner asks for every
// frame it receives.
var pyyolFrameTypes = sync.OnceValue(func() []string {
	var out []string
	for _, name := range PyyolSchemaNames() {
		if !strings.Contains(name, "-") {
			out = append(out, name)
		}
	}
	return out
})

// PyyolSchemaNames lists every schema of spec/pyyol/frames, frame types
// and games' parts alike, for a validator that compiles them together.
func PyyolSchemaNames() []string {
	entries, _ := frameFiles.ReadDir("pyyol/frames")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	return out
}
