// Package authoring validates FORGE authoring packages: the legacy field's
// removal, the puzzle schema, DSL types, bounds, the 200 x 3 validation runs,
// the execution budget and public-example consistency. Duplicates are the
// chain's business (reference/forge).
package authoring

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/skeleton/jsonscan"
)

// Domain is the set of legal inputs of a level.
type Domain struct {
	MinLength int   `json:"minLength"`
	MaxLength int   `json:"maxLength"`
	MinValue  int64 `json:"minValue"`
	MaxValue  int64 `json:"maxValue"`
}

// Contains reports whether input is legal in the domain.
func (d Domain) Contains(input []int64) bool {
	if len(input) < d.MinLength || len(input) > d.MaxLength {
		return false
	}
	for _, x := range input {
		if x < d.MinValue || x > d.MaxValue {
			return false
		}
	}
	return true
}

// Example is a public input with its output.
type Example struct {
	Input  []int64         `json:"input"`
	Output json.RawMessage `json:"output"`
}

// Public is what every solver of the level sees.
type Public struct {
	Title       string    `json:"title"`
	Rules       string    `json:"rules"`
	InputDomain Domain    `json:"inputDomain"`
	Examples    []Example `json:"examples"`
}

// Private never leaves the server (FORGE-PRIVATE-SERVER-ONLY).
type Private struct {
	Oracle       dsl.Program     `json:"oracle"`
	HiddenInputs [][]int64       `json:"hiddenInputs"`
	Validation   json.RawMessage `json:"validation,omitempty"`
}

// Package is a level as an author submits it, without the legacy
// difficulty, in the shape of the kit's puzzle.schema.json (FORGE-REF-SCHEMA).
type Package struct {
	ID      string  `json:"id"`
	Public  Public  `json:"public"`
	Private Private `json:"private"`
}

// Normalized is a package body after the legacy field's removal: its
// canonical JSON (sorted keys), the idempotency comparison's input, and its
// content fingerprint (everything but the id), the duplicate check's.
type Normalized struct {
	Canonical   []byte
	Fingerprint string
	doc         map[string]any
}

// PackageBounds are the structural bounds every package the schema
// accepts keeps (spec/forge/puzzle.schema.json): no array holds more than
// 64 items (inputs, outputs, steps, examples and hidden inputs hold at
// most 64, 10 and 12) and no object more than a handful of members; no
// string is longer than 2000 code points (16 KiB as written, escapes
// included); a maximal package holds about 4 000 values. A package past
// them breaks the schema whatever else it holds.
var PackageBounds = jsonscan.Bounds{MaxDepth: 32, MaxItems: 64, MaxString: 16 << 10, MaxValues: 8192}

// Prescan refuses a package whose shape already breaks the schema's size
// bounds (FORGE-VALID-SCHEMA) while its tokens stream by, before it is
// decoded, normalized or evaluated: the work and memory of refusing a
// package far beyond the documented bounds are bounded by PackageBounds,
// not by the package (issue 21: a 170 000-element hidden input took
// seconds of schema validation).
func Prescan(body []byte) error {
	if err := jsonscan.Scan(body, PackageBounds); err != nil {
		if err.Code == jsonscan.CodeInvalidJSON || err.Code == jsonscan.CodeDuplicateKey {
			return reject(CodeSchema, "the body is not one JSON object: %s", err.Message)
		}
		return reject(CodeSchema, "%s: the package breaks puzzle.schema.json's bounds", err.Message)
	}
	return nil
}

// Normalize decodes a body, removes the legacy difficulty
// (FORGE-LEGACY-DIFFICULTY-REMOVED) and computes its canonical form.
func Normalize(body []byte) (*Normalized, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil || doc == nil || dec.More() {
		return nil, reject(CodeSchema, "the body is not one JSON object")
	}
	delete(doc, "difficulty")
	canonical, _ := json.Marshal(doc)
	content := map[string]any{}
	for k, v := range doc {
		if k != "id" {
			content[k] = v
		}
	}
	raw, _ := json.Marshal(content)
	sum := sha256.Sum256(raw)
	return &Normalized{Canonical: canonical, Fingerprint: hex.EncodeToString(sum[:]), doc: doc}, nil
}
