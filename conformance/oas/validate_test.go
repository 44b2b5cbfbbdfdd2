package oas_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/conformance/verdict"
)

const doc = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /runs/{id}:
    get:
      operationId: getRun
      x-rule: T-RUN-SHAPE
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: run
          content: {application/json: {schema: {type: object, required: [run_id], properties: {run_id: {type: string}}}}}
        4XX:
          description: error
          content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
  /runs/recent:
    get:
      operationId: recentRuns
      responses:
        "200":
          description: list
          content: {application/json: {schema: {type: array, items: {type: object}}}}
components:
  schemas:
    Error:
      type: object
      required: [code]
      properties: {code: {type: string}}
`

func load(t *testing.T) *oas.Validator {
	v, err := oas.Load([]byte(doc), "/game/api", "T-OPENAPI")
	require.NoError(t, err)
	return v
}

func check(v *oas.Validator, method, path string, status int, body string) error {
	req, _ := http.NewRequest(method, "http://h"+path, nil)
	return v.Validate(req, status, nil, []byte(body), nil)
}

func failedRule(t *testing.T, err error) string {
	t.Helper()
	var f *verdict.Failure
	require.True(t, errors.As(err, &f), "want a *verdict.Failure, got %v", err)
	return f.RuleID
}

func TestMatchingResponsesPass(t *testing.T) {
	v := load(t)
	assert.NoError(t, check(v, "GET", "/game/api/runs/run_1", 200, `{"run_id":"run_1"}`))
	assert.NoError(t, check(v, "GET", "/game/api/runs/run_1", 404, `{"code":"not_found"}`), "4XX range applies")
	assert.NoError(t, check(v, "GET", "/game/api/runs/recent", 200, `[]`), "a literal segment beats {id}")
}

func TestMismatchNamesOperationAndItsRule(t *testing.T) {
	v := load(t)
	err := check(v, "GET", "/game/api/runs/run_1", 200, `{"run":1}`)
	assert.Equal(t, "T-RUN-SHAPE", failedRule(t, err))
	assert.Contains(t, err.Error(), "getRun")
}

func TestUndocumentedStatusAndPathFail(t *testing.T) {
	v := load(t)
	err := check(v, "GET", "/game/api/runs/recent", 500, `{}`)
	assert.Equal(t, "T-OPENAPI", failedRule(t, err))
	assert.Contains(t, err.Error(), "status 500 is not documented")
	assert.Equal(t, "T-OPENAPI", failedRule(t, check(v, "DELETE", "/game/api/runs/x", 200, `{}`)))
	assert.Equal(t, "T-OPENAPI", failedRule(t, check(v, "GET", "/elsewhere/runs/x", 200, `{}`)))
}

func TestNonJSONBodyFails(t *testing.T) {
	v := load(t)
	err := check(v, "GET", "/game/api/runs/x", 200, `<html>`)
	assert.Contains(t, err.Error(), "not JSON")
}

func TestInvalidDocumentIsRejected(t *testing.T) {
	_, err := oas.Load([]byte("openapi: 3.0.3\npaths: {}\n"), "", "X")
	assert.Error(t, err)
}

// The validator judges the decoded value the caller hands it (the
// driver's response tree) rather than decoding the body again.
func TestTheValidatorJudgesTheTreeItIsHanded(t *testing.T) {
	v := load(t)
	req, _ := http.NewRequest(http.MethodGet, "http://h/game/api/runs/r1", nil)
	good := []byte(`{"run_id":"r1"}`)
	require.NoError(t, v.Validate(req, 200, nil, good, nil))
	tree := func() (any, error) { return map[string]any{"run_id": 7.0}, nil }
	err := v.Validate(req, 200, nil, []byte(`{"run_id":"r2"}`), tree)
	assert.Equal(t, "T-RUN-SHAPE", failedRule(t, err), "a run_id of the wrong type in the tree is a finding")
}
