package forge

import (
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// Vector recomputes a FORGE known-answer vector with the reference DSL.
func Vector(kind string, input json.RawMessage) (any, error) {
	switch kind {
	case "validate":
		return validateVector(input)
	case "dsl-eval":
	default:
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

// validateVector runs the reference validation on a package: the first
// rejection code, or accepted.
func validateVector(input json.RawMessage) (any, error) {
	n, err := authoring.Normalize(input)
	if err == nil {
		_, err = authoring.Validator{}.Validate(n)
	}
	if err == nil {
		return map[string]bool{"accepted": true}, nil
	}
	if r, ok := err.(*authoring.Rejection); ok {
		return map[string]string{"code": r.Code}, nil
	}
	return nil, err
}
