package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/agentgames/conformance/reference/bounty"
)

// faulty wraps the MCP handler with the tamper switches of the MCP rules
// (BOUNTY-MCP-FLOW, BOUNTY-MCP-NOTIFY, BOUNTY-MCP-GET,
// BOUNTY-MCP-VERSIONS); an unbroken engine gets h unchanged.
func faulty(e *bounty.Engine, h http.Handler) http.Handler {
	rules := []string{"BOUNTY-MCP-FLOW", "BOUNTY-MCP-NOTIFY", "BOUNTY-MCP-GET", "BOUNTY-MCP-VERSIONS"}
	broken := false
	for _, r := range rules {
		broken = broken || e.Broken(r)
	}
	if !broken {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && e.Broken("BOUNTY-MCP-GET") {
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("{}"))
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		switch {
		case msg.ID == nil && e.Broken("BOUNTY-MCP-NOTIFY"):
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ok":true}`))
		case msg.Method == "tools/list" && e.Broken("BOUNTY-MCP-FLOW"),
			msg.Method == "initialize" && msg.Params.ProtocolVersion == "2025-03-26" && e.Broken("BOUNTY-MCP-VERSIONS"):
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "broken on purpose"}})
		default:
			h.ServeHTTP(w, r)
		}
	})
}
