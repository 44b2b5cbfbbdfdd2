// Package forge embeds the FORGE documents that are the kit's own reference
// specification (the DSL, the authoring schema) and the audit that maps
// every statement of the FORGE seed to the rules encoding it.
package forge

import (
	_ "embed"
	"encoding/json"
)

// DSL is spec/forge/dsl.md, served at /spec/dsl.md (FORGE-REF-DSL).
//
//go:embed dsl.md
var DSL []byte

// PuzzleSchema is spec/forge/puzzle.schema.json, served at
// /spec/puzzle.schema.json (FORGE-REF-SCHEMA).
//
//go:embed puzzle.schema.json
var PuzzleSchema []byte

//go:embed statements.json
var statements []byte

// Statement maps one JSON path of the seed (and every path under it) to the
// rules that encode it, or says why it stays unchecked; the format is the
// kit's statement list (spec/statements_test.go checks id, quote and rules).
type Statement struct {
	ID        string   `json:"id"`
	Path      string   `json:"path"`
	Quote     string   `json:"quote"`
	Rules     []string `json:"rules,omitempty"`
	Unchecked string   `json:"unchecked,omitempty"`
}

// Statements returns the audit of the FORGE seed.
func Statements() ([]Statement, error) {
	var doc struct {
		Statements []Statement `json:"statements"`
	}
	err := json.Unmarshal(statements, &doc)
	return doc.Statements, err
}
