package spec

import (
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// lintClean lists the documents that pass `npx @redocly/cli lint` with 0
// errors, held to its operation rules here; the others are held to the
// schema rule every strict validator needs (nullable beside a type) until
// their authors make them lint clean too.
var lintClean = map[string]bool{"iyra": true, "phantom-press": true}

// TestOpenAPIDocumentsAreStrict holds every protocol's OpenAPI document to
// what strict OpenAPI 3.0 tools (a schema compiler such as ajv, Redocly's
// recommended rules) demand beyond kin-openapi's own validation: nullable
// only beside a type and, for lint-clean documents, a license and every
// operation with an id, a summary, an explicit security requirement and a
// documented 4xx answer.
func TestOpenAPIDocumentsAreStrict(t *testing.T) {
	for _, p := range Protocols() {
		raw, err := OpenAPI(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		doc, err := openapi3.NewLoader().LoadFromData(raw)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if lintClean[p] && (doc.Info == nil || doc.Info.License == nil) {
			t.Errorf("%s: info has no license", p)
		}
		seen := map[*openapi3.Schema]bool{}
		for name, ref := range doc.Components.Schemas {
			checkSchema(t, p+" components.schemas."+name, ref, seen)
		}
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				where := p + " " + method + " " + path
				if lintClean[p] {
					checkOperation(t, where, op, doc.Security != nil)
				}
				for code, resp := range op.Responses.Map() {
					for ct, mt := range resp.Value.Content {
						checkSchema(t, where+" "+code+" "+ct, mt.Schema, seen)
					}
				}
				if op.RequestBody != nil {
					for ct, mt := range op.RequestBody.Value.Content {
						checkSchema(t, where+" body "+ct, mt.Schema, seen)
					}
				}
			}
		}
	}
}

// checkOperation requires an id, a summary, security stated on the
// operation (security: [] for a public one) or the root, and a 4xx answer.
func checkOperation(t *testing.T, where string, op *openapi3.Operation, rootSecurity bool) {
	t.Helper()
	if op.OperationID == "" || op.Summary == "" {
		t.Errorf("%s: an operation needs an operationId and a summary", where)
	}
	if op.Security == nil && !rootSecurity {
		t.Errorf("%s: no security requirement (a public operation says security: [])", where)
	}
	has4xx := false
	for code := range op.Responses.Map() {
		has4xx = has4xx || strings.HasPrefix(code, "4")
	}
	if !has4xx {
		t.Errorf("%s: no documented 4xx answer", where)
	}
}

// checkSchema walks a schema and everything it holds: under OpenAPI 3.0
// nullable means nothing without a type beside it, so a strict validator
// refuses null where the document meant to allow it.
func checkSchema(t *testing.T, where string, ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	t.Helper()
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	s := ref.Value
	seen[s] = true
	if s.Nullable && (s.Type == nil || len(*s.Type) == 0) {
		t.Errorf("%s: nullable without a type", where)
	}
	for name, p := range s.Properties {
		checkSchema(t, where+"."+name, p, seen)
	}
	checkSchema(t, where+"[]", s.Items, seen)
	if s.AdditionalProperties.Schema != nil {
		checkSchema(t, where+"{}", s.AdditionalProperties.Schema, seen)
	}
	for i, group := range [][]*openapi3.SchemaRef{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range group {
			checkSchema(t, where+[]string{".allOf", ".anyOf", ".oneOf"}[i], sub, seen)
		}
	}
	checkSchema(t, where+".not", s.Not, seen)
}
