package spec

import (
	"embed"
	"strings"
)

//go:embed pyyol/frames/*.json
var frameFiles embed.FS

// PyyolFrameSchema returns the JSON Schema of one Pyyol socket frame type
// ("turn", "event", ...) or of "goofspiel-view" / "goofspiel-move".
func PyyolFrameSchema(name string) ([]byte, error) {
	return frameFiles.ReadFile("pyyol/frames/" + name + ".json")
}

// PyyolFrameTypes lists the frame types that have a schema.
func PyyolFrameTypes() []string {
	entries, _ := frameFiles.ReadDir("pyyol/frames")
	var out []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".json")
		if !strings.HasPrefix(name, "goofspiel-") {
			out = append(out, name)
		}
	}
	return out
}
