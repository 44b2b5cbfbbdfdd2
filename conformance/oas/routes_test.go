package oas_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/oas"
)

const routesDoc = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /runs/{id}:
    get:
      operationId: getRun
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: run}
        "404":
          description: no such run
          content: {application/json: {schema: {type: object, required: [code], properties: {code: {type: string}}}}}
  /mcp:
    get:
      operationId: noStream
      responses:
        "405": {description: no SSE stream}
  /loose:
    get:
      operationId: loose
      responses:
        4XX:
          description: anything
          content: {application/json: {schema: {type: object}}}
`

func TestRoutesAreNamedWithTheirTemplateAndBase(t *testing.T) {
	v, err := oas.Load([]byte(routesDoc), "/api", "T-OPENAPI")
	require.NoError(t, err)
	name, ok := v.Route("GET", "/api/runs/r_1")
	assert.True(t, ok)
	assert.Equal(t, "GET /api/runs/{id}", name)
	_, ok = v.Route("POST", "/api/runs/r_1")
	assert.False(t, ok, "an undocumented method has no route")
	assert.True(t, v.Documents("GET", "/api/mcp", 405))
	assert.False(t, v.Documents("GET", "/api/runs/r_1", 405))
	assert.False(t, v.Documents("GET", "/api/loose", 404), "4XX is a range, not a documented 404")
}

func TestOnlyTheDocumentedErrorShapeShowsARouteServed(t *testing.T) {
	v, err := oas.Load([]byte(routesDoc), "/api", "T-OPENAPI")
	require.NoError(t, err)
	assert.True(t, v.Shaped("GET", "/api/runs/r_1", 404, []byte(`{"code":"run_not_found"}`)))
	assert.False(t, v.Shaped("GET", "/api/runs/r_1", 404, []byte("404 page not found\n")), "a mux's page")
	assert.False(t, v.Shaped("GET", "/api/runs/r_1", 404, []byte(`{"detail":"Not Found"}`)), "another framework's shape")
	assert.False(t, v.Shaped("GET", "/api/loose", 404, []byte(`{"detail":"Not Found"}`)), "a schema that requires nothing shows nothing")
	assert.False(t, v.Shaped("GET", "/api/mcp", 405, []byte(`{}`)), "a documented answer without a body schema")
	assert.False(t, v.Shaped("GET", "/api/elsewhere", 404, []byte(`{"code":"x"}`)), "no documented route")
}
