package authoring

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentgames/conformance/reference/forge/dsl"
	forgespec "github.com/agentgames/conformance/spec/forge"
)

// Validation rejection codes (FORGE-REF-ERROR-CODES).
const (
	CodeSchema      = "SCHEMA_INVALID"
	CodeTypes       = "DSL_TYPE_ERROR"
	CodeBounds      = "BOUNDS_EXCEEDED"
	CodeRun         = "VALIDATION_RUN_FAILED"
	CodeBudget      = "EXECUTION_BUDGET_EXCEEDED"
	CodeExample     = "EXAMPLE_MISMATCH"
	CodeDuplicateID = "DUPLICATE_ID"
	CodeDuplicate   = "DUPLICATE_CONTENT"
)

// GeneratedInputs and RunsPerInput are the contract's validation sizes
// (FORGE-VALID-200X3).
const (
	GeneratedInputs = 200
	RunsPerInput    = 3
)

// Rejection is a refused package with its code.
type Rejection struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (r *Rejection) Error() string { return r.Code + ": " + r.Message }

func reject(code, format string, args ...any) *Rejection {
	return &Rejection{Code: code, Message: fmt.Sprintf(format, args...)}
}

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(forgespec.PuzzleSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("puzzle.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("puzzle.schema.json")
})

// Validator checks packages under one DSL dialect (the zero value is the
// reference DSL).
type Validator struct {
	Dialect dsl.Dialect
}

// Validate runs every check but the duplicate ones, in the order dsl.md
// section 7 gives, and returns the decoded package.
func (v Validator) Validate(n *Normalized) (*Package, error) {
	p, err := checkSchema(n)
	if err != nil {
		return nil, err
	}
	// FORGE-VALID-TYPES: the oracle type-checks and the examples have its shape.
	if _, err := v.Dialect.Check(p.Private.Oracle); err != nil {
		return nil, reject(CodeTypes, "%v", err)
	}
	if err := checkBounds(p); err != nil {
		return nil, err
	}
	if err := v.checkRuns(p, n.Fingerprint); err != nil {
		return nil, err
	}
	return p, v.checkExamples(p)
}

// checkSchema validates the normalized document against the puzzle schema
// (FORGE-VALID-SCHEMA, FORGE-LEGACY-DIFFICULTY-SCHEMA) and decodes it.
func checkSchema(n *Normalized) (*Package, error) {
	sch, err := compiled()
	if err != nil {
		return nil, reject(CodeSchema, "schema unavailable: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(n.Canonical))
	if err != nil {
		return nil, reject(CodeSchema, "%v", err)
	}
	if err := sch.Validate(inst); err != nil {
		return nil, reject(CodeSchema, "%v", err)
	}
	var p Package
	if err := json.Unmarshal(n.Canonical, &p); err != nil {
		return nil, reject(CodeSchema, "%v", err)
	}
	return &p, nil
}

// checkBounds applies the relational bounds the schema cannot state
// (FORGE-VALID-BOUNDS).
func checkBounds(p *Package) error {
	d := p.Public.InputDomain
	if d.MinLength > d.MaxLength || d.MinValue > d.MaxValue {
		return reject(CodeBounds, "input domain is empty: lengths %d..%d, values %d..%d", d.MinLength, d.MaxLength, d.MinValue, d.MaxValue)
	}
	for i, e := range p.Public.Examples {
		if !d.Contains(e.Input) {
			return reject(CodeBounds, "example %d input lies outside the input domain", i+1)
		}
	}
	for i, h := range p.Private.HiddenInputs {
		if !d.Contains(h) {
			return reject(CodeBounds, "hidden input %d lies outside the input domain", i+1)
		}
		for j := range i {
			if slices.Equal(h, p.Private.HiddenInputs[j]) {
				return reject(CodeBounds, "hidden inputs %d and %d are equal", j+1, i+1)
			}
		}
		for _, e := range p.Public.Examples {
			if slices.Equal(h, e.Input) {
				return reject(CodeBounds, "hidden input %d is a public example's input", i+1)
			}
		}
	}
	return nil
}

// checkRuns runs the oracle 3 times on each of 200 generated legal inputs
// and on every example and hidden input (FORGE-VALID-200X3): any failure
// rejects, an overflow included (FORGE-DSL-OVERFLOW-REJECTED), and so does a
// run over the execution budget (FORGE-VALID-BUDGET).
func (v Validator) checkRuns(p *Package, fingerprint string) error {
	inputs := Generate(p.Public.InputDomain, fingerprint, GeneratedInputs)
	for _, e := range p.Public.Examples {
		inputs = append(inputs, e.Input)
	}
	inputs = append(inputs, p.Private.HiddenInputs...)
	for _, in := range inputs {
		var first []byte
		for run := range RunsPerInput {
			out, err := v.Dialect.Run(p.Private.Oracle, in, dsl.DefaultBudget)
			if err != nil {
				return runRejection(err, in)
			}
			raw, _ := json.Marshal(out)
			if run == 0 {
				first = raw
			} else if !bytes.Equal(first, raw) {
				return reject(CodeRun, "the oracle is not deterministic on %v", in)
			}
		}
	}
	return nil
}

func runRejection(err error, in []int64) error {
	if e, ok := err.(*dsl.Error); ok && e.Code == dsl.CodeBudget {
		return reject(CodeBudget, "on input of length %d: %v", len(in), err)
	}
	return reject(CodeRun, "on input %v: %v", in, err)
}

// checkExamples compares every public example with the oracle's output
// (FORGE-VALID-EXAMPLES).
func (v Validator) checkExamples(p *Package) error {
	for i, e := range p.Public.Examples {
		out, _ := v.Dialect.Run(p.Private.Oracle, e.Input, dsl.DefaultBudget)
		if !SameJSON(e.Output, out) {
			want, _ := json.Marshal(out)
			return reject(CodeExample, "example %d: the oracle gives %s, the package says %s", i+1, want, e.Output)
		}
	}
	return nil
}

// SameJSON compares a JSON document with a value by their canonical forms.
func SameJSON(raw json.RawMessage, v any) bool {
	var a, b any
	other, err := json.Marshal(v)
	if err != nil || json.Unmarshal(raw, &a) != nil || json.Unmarshal(other, &b) != nil {
		return false
	}
	ca, _ := json.Marshal(a)
	cb, _ := json.Marshal(b)
	return bytes.Equal(ca, cb)
}

// Generate draws n legal inputs from d, seeded by a hex fingerprint: the
// first two have the shortest and longest length, values reach both bounds.
func Generate(d Domain, fingerprint string, n int) [][]int64 {
	seed, _ := hex.DecodeString(fingerprint)
	seed = append(seed, make([]byte, 16)...)
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(seed[:8]), binary.BigEndian.Uint64(seed[8:16])))
	out := make([][]int64, n)
	for i := range out {
		length := d.MinLength + rng.IntN(d.MaxLength-d.MinLength+1)
		switch i {
		case 0:
			length = d.MinLength
		case 1:
			length = d.MaxLength
		}
		in := make([]int64, length)
		for j := range in {
			in[j] = d.MinValue + rng.Int64N(d.MaxValue-d.MinValue+1)
		}
		if i == 1 && length > 1 {
			in[0], in[1] = d.MinValue, d.MaxValue
		}
		out[i] = in
	}
	return out
}
