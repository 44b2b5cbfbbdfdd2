package bounty_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"
)

// The targets of the fifth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// mcpMethods are the JSON-RPC methods the reference's MCP endpoint knows.
var mcpMethods = map[string]bool{"initialize": true, "tools/list": true, "tools/call": true, "ping": true}

// unknownMethods answers a JSON-RPC request for a method the endpoint
// does not know with the message answer builds from its id and method.
func unknownMethods(answer func(id any, method string) map[string]any) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return mcpEdit(h, func(w http.ResponseWriter, rpc map[string]any) bool {
			method, _ := rpc["method"].(string)
			id, isRequest := rpc["id"]
			if !isRequest || mcpMethods[method] || strings.HasPrefix(method, "notifications/") {
				return false
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(answer(id, method))
			return true
		})
	}
}

// emptyResult is an empty result: a dispatcher whose default branch
// returns {} instead of the error -32601.
func emptyResult(id any, _ string) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{}}
}

// toolsCapabilityDropped answers initialize with an empty capabilities
// object: the server's capabilities left at their zero value.
func toolsCapabilityDropped(m map[string]any) {
	if res, ok := m["result"].(map[string]any); ok && res["protocolVersion"] != nil {
		res["capabilities"] = map[string]any{}
	}
}

// withoutJSONRPC drops the "jsonrpc": "2.0" member of every MCP answer: a
// result struct that never carried it.
func withoutJSONRPC(m map[string]any) { delete(m, "jsonrpc") }

// trackRecords edits every board entry's track_record.
func trackRecords(edit func(tr, entry map[string]any)) func(m map[string]any) {
	return func(m map[string]any) {
		list, _ := m["peers"].([]any)
		for _, e := range list {
			if o, ok := e.(map[string]any); ok {
				if tr, ok := o["track_record"].(map[string]any); ok {
					edit(tr, o)
				}
			}
		}
	}
}

// solvedThisRound shows track_record.shares_solved as the shares the entry
// holds now: the cross-round count read from the round's holdings.
func solvedThisRound(tr, entry map[string]any) {
	held, _ := entry["shares_held"].([]any)
	tr["shares_solved"] = len(held)
}

// wonRoundPlusOne shows last_won_round as the round the win opened: the
// engine's round read after the rotation.
func wonRoundPlusOne(tr, _ map[string]any) {
	if r, ok := tr["last_won_round"].(float64); ok {
		tr["last_won_round"] = r + 1
	}
}

// contactsInBytes refuses a listing whose contact is longer than 256
// bytes though at most 256 characters: the limit counted with len().
func contactsInBytes(h http.Handler) http.Handler { return contactInBytes(h, "/peers") }

// profileContactsInBytes is contactsInBytes on the profile edit.
func profileContactsInBytes(h http.Handler) http.Handler { return contactInBytes(h, "/agents/profile") }

// contactInBytes refuses a POST to the path ending in suffix whose
// contact is past 256 bytes though at most 256 characters.
func contactInBytes(h http.Handler, suffix string) http.Handler {
	return refusesField(h, suffix, "contact", "contact must be at most 256 chars", func(c string) bool {
		return len(c) > 256 && utf8.RuneCountInString(c) <= 256
	})
}

// tiesByAgentID ranks standings by PLAY earned, then rounds won, then
// agent_id: the third key of the ranking rule forgotten.
func tiesByAgentID(m map[string]any) {
	list, _ := m["standings"].([]any)
	num := func(i int, k string) float64 { f, _ := list[i].(map[string]any)[k].(float64); return f }
	sort.SliceStable(list, func(i, j int) bool {
		if a, b := num(i, "play_earned"), num(j, "play_earned"); a != b {
			return a > b
		}
		if a, b := num(i, "rounds_won"), num(j, "rounds_won"); a != b {
			return a > b
		}
		ai, _ := list[i].(map[string]any)["agent_id"].(string)
		aj, _ := list[j].(map[string]any)["agent_id"].(string)
		return ai < aj
	})
}

// errorWithData is the error -32601 carrying a data member and its own
// message: JSON-RPC leaves both free.
func errorWithData(id any, method string) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": -32601, "message": "no such method", "data": map[string]any{"method": method}}}
}

// richSchemas gives every tool's inputSchema a $schema and
// additionalProperties false: a JSON Schema with more keywords.
func richSchemas(m map[string]any) {
	eachTool(m, func(o map[string]any) {
		if s, ok := o["inputSchema"].(map[string]any); ok {
			s["$schema"], s["additionalProperties"] = "https://json-schema.org/draft/2020-12/schema", false
		}
	})
}

// untypedSchemas drops "type": "object" from every tool's inputSchema: a
// schema that lists properties only.
func untypedSchemas(m map[string]any) {
	eachTool(m, func(o map[string]any) {
		if s, ok := o["inputSchema"].(map[string]any); ok {
			delete(s, "type")
		}
	})
}

// eachTool runs edit on every tool of a tools/list answer.
func eachTool(m map[string]any, edit func(tool map[string]any)) {
	res, _ := m["result"].(map[string]any)
	tools, _ := res["tools"].([]any)
	for _, t := range tools {
		if o, ok := t.(map[string]any); ok {
			edit(o)
		}
	}
}
