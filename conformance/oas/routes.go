package oas

import (
	"encoding/json"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

// Route names the documented operation a request path hits, as "METHOD
// /base/template" ("GET /api/v5/sessions/{session_id}"), for the driver's
// not-served evidence and messages (driver.RouteInfo).
func (v *Validator) Route(method, path string) (string, bool) {
	r := v.find(method, path)
	if r == nil {
		return "", false
	}
	return method + " " + v.base + r.template, true
}

// Documents reports whether the operation a request hits lists exactly
// status among its responses (a 405 for GET /mcp, a 501 for /turn): such
// an answer is the contract's, not a sign of a missing route.
func (v *Validator) Documents(method, path string, status int) bool {
	r := v.find(method, path)
	if r == nil {
		return false
	}
	_, ok := r.bodies[strconv.Itoa(status)]
	return ok
}

// Shaped reports whether body is the operation's documented answer for
// status (exact code, NXX or default) under a schema that requires fields,
// so that a generic "not found" page, a plain-text 404 or an empty object
// never counts as the protocol's own error: a 404 in the protocol's error
// shape comes from the protocol's code, which serves the route.
func (v *Validator) Shaped(method, path string, status int, body []byte) bool {
	r := v.find(method, path)
	if r == nil {
		return false
	}
	schema, ok := r.schemaFor(status)
	if !ok || schema == nil || !requiresFields(schema) {
		return false
	}
	var value any
	if json.Unmarshal(body, &value) != nil {
		return false
	}
	return schema.VisitJSON(value) == nil
}

// requiresFields reports whether a schema, or one of its allOf parts,
// names required properties.
func requiresFields(s *openapi3.Schema) bool {
	if len(s.Required) > 0 {
		return true
	}
	for _, part := range s.AllOf {
		if part.Value != nil && requiresFields(part.Value) {
			return true
		}
	}
	return false
}
