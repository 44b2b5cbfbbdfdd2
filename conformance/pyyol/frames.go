package pyyol

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

var (
	schemaOnce sync.Once
	schemas    map[string]*openapi3.Schema
)

// frameSchemas loads spec/pyyol/frames once.
func frameSchemas() map[string]*openapi3.Schema {
	schemaOnce.Do(func() {
		schemas = map[string]*openapi3.Schema{}
		for _, t := range spec.PyyolFrameTypes() {
			raw, err := spec.PyyolFrameSchema(t)
			s := &openapi3.Schema{}
			if err == nil && json.Unmarshal(raw, s) == nil {
				schemas[t] = s
			}
		}
	})
	return schemas
}

// checkFrame validates a frame against the schema of its type. The frame
// layouts beyond what the docs name are the kit's reading, so a mismatch
// is a PYYOL-REF-FRAMES finding (a warning); the documented fields have
// their own MUST checks in the steps.
func checkFrame(raw json.RawMessage, t string) error {
	s, ok := frameSchemas()[t]
	if !ok {
		return verdict.Failf("PYYOL-REF-FRAMES", "a documented frame type", t, "frame type %q has no schema", t)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return verdict.Failf("PYYOL-WS-ENVELOPE", "JSON", string(raw), "%v", err)
	}
	if err := s.VisitJSON(v); err != nil {
		return verdict.Failf("PYYOL-REF-FRAMES", fmt.Sprintf("a %s frame as spec/pyyol/frames/%s.json describes it", t, t),
			string(raw), "%v", err)
	}
	return nil
}
