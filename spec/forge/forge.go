// Package forge embeds the FORGE documents that are the kit's own reference
// specification (the DSL, the authoring schema). The audit of the FORGE
// seed is spec/forge/statements.json, checked with every protocol's by
// spec/statements_test.go.
package forge

import _ "embed"

// DSL is spec/forge/dsl.md, served at /spec/dsl.md (FORGE-REF-DSL).
//
//go:embed dsl.md
var DSL []byte

// PuzzleSchema is spec/forge/puzzle.schema.json, served at
// /spec/puzzle.schema.json (FORGE-REF-SCHEMA).
//
//go:embed puzzle.schema.json
var PuzzleSchema []byte
