package forge

import (
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// Vector recomputes a FORGE known-answer vector with the reference DSL.
func Vector(kind string, input json.RawMessage) (any, error) {
	if kind != "dsl-eval" {
		return nil, fmt.Errorf("forge: unknown vector kind %q", kind)
	}
	var in struct {
		Program json.RawMessage `json:"program"`
		Input   []int64         `json:"input"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	p, err := dsl.Decode(in.Program)
	if err == nil {
		var v dsl.Value
		if v, err = dsl.Eval(p, in.Input); err == nil {
			return map[string]any{"output": v}, nil
		}
	}
	if e, ok := err.(*dsl.Error); ok {
		return map[string]string{"error": e.Code}, nil
	}
	return nil, err
}
