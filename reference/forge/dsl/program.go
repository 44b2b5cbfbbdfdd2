// Package dsl is the FORGE reference DSL: a typed pipeline over integers and
// integer lists, encoded as JSON, with its decoder, type checker and
// evaluator. spec/forge/dsl.md is its written specification; this package
// is the executable one (FORGE-REF-DSL).
package dsl

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxSafe is the largest JSON safe integer, 2^53-1. Every value a program
// reads or produces lies in [-MaxSafe, MaxSafe] (FORGE-DSL-OVERFLOW-REJECTED).
const MaxSafe int64 = 1<<53 - 1

// MaxSteps is the longest pipeline a program may hold.
const MaxSteps = 12

// Step is one operation of a pipeline. Only the fields its op names are
// meaningful; the checker refuses the others.
type Step struct {
	Op      string `json:"op"`
	Fn      string `json:"fn,omitempty"`
	Pred    string `json:"pred,omitempty"`
	Arg     *int64 `json:"arg,omitempty"`
	N       *int64 `json:"n,omitempty"`
	Size    *int64 `json:"size,omitempty"`
	Reduce  string `json:"reduce,omitempty"`
	Partial string `json:"partial,omitempty"`
	Order   string `json:"order,omitempty"`
}

// Program is a pipeline applied to one input list.
type Program struct {
	Steps []Step `json:"steps"`
}

// Decode reads a program strictly: unknown fields and trailing data are
// errors, so that what an author wrote is what runs.
func Decode(raw []byte) (Program, error) {
	var p Program
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Program{}, &Error{Code: CodeType, Msg: "program is not a DSL pipeline: " + err.Error()}
	}
	if dec.More() {
		return Program{}, &Error{Code: CodeType, Msg: "trailing data after the program"}
	}
	return p, nil
}

// I returns a pointer to v, for building steps in code.
func I(v int64) *int64 { return &v }

// Error codes of the DSL. CodeType and CodeBudget are static or dynamic
// refusals of a program; the others are evaluation failures on one input.
const (
	CodeType     = "DSL_TYPE_ERROR"
	CodeOverflow = "OVERFLOW"
	CodeEmpty    = "EMPTY_REDUCE"
	CodePartial  = "PARTIAL_CHUNK"
	CodeBudget   = "EXECUTION_BUDGET_EXCEEDED"
	CodeInput    = "ILLEGAL_INPUT"
)

// Error is a DSL failure with a machine-readable code.
type Error struct {
	Code string
	Step int // 1-based step, 0 when not tied to one
	Msg  string
}

func (e *Error) Error() string {
	if e.Step > 0 {
		return fmt.Sprintf("%s at step %d: %s", e.Code, e.Step, e.Msg)
	}
	return e.Code + ": " + e.Msg
}

func errAt(code string, step int, format string, args ...any) *Error {
	return &Error{Code: code, Step: step, Msg: fmt.Sprintf(format, args...)}
}
