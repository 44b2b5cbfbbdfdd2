package oas_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/oas"
)

const streamDoc = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /mcp:
    post:
      operationId: mcp
      x-rule: T-MCP
      responses:
        "200":
          description: a JSON-RPC response
          content:
            application/json:
              schema: {type: object, required: [jsonrpc], properties: {jsonrpc: {type: string, enum: ["2.0"]}}}
            text/event-stream:
              schema: {type: string}
  /runs:
    post:
      operationId: newRun
      responses:
        "200":
          description: run
          content: {application/json: {schema: {type: object}}}
`

// TestAnEventStreamIsJudgedByItsMessage: where a response is documented
// as text/event-stream beside application/json (MCP's streamable HTTP),
// an event-stream answer is judged by the JSON its event carries; where
// it is not, an event stream is no documented body.
func TestAnEventStreamIsJudgedByItsMessage(t *testing.T) {
	v, err := oas.Load([]byte(streamDoc), "/", "T-OPENAPI")
	require.NoError(t, err)
	stream := http.Header{"Content-Type": {"Text/Event-Stream; charset=utf-8"}}
	post := func(path string, header http.Header, body string) error {
		req, _ := http.NewRequest(http.MethodPost, "http://h"+path, nil)
		return v.Validate(req, 200, header, []byte(body), nil)
	}
	assert.NoError(t, post("/mcp", stream, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1}\n\n"))
	assert.Equal(t, "T-MCP", failedRule(t, post("/mcp", stream, "event: message\ndata: {\"jsonrpc\":\"1.0\"}\n\n")))
	assert.Equal(t, "T-MCP", failedRule(t, post("/mcp", stream, ": no event at all\n\n")))
	assert.NoError(t, post("/mcp", http.Header{"Content-Type": {"application/json"}}, `{"jsonrpc":"2.0"}`))
	assert.Error(t, post("/runs", stream, "data: {}\n\n"), "an event stream where none is documented")
}
