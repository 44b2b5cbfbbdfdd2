package driver

// JSONRPC is the client for JSON-RPC 2.0 over HTTP POST, the wire of MCP's
// streamable-http transport. The agent-puzzle bounty exposes its whole game
// that way ("POST JSON-RPC 2.0: initialize -> tools/list -> tools/call";
// "Notifications return 202 with no body"), so checking it means speaking
// MCP's details: the Accept header listing both JSON and event streams, a
// response that may come as a Server-Sent Events stream, and the
// Mcp-Session-Id the server hands out and expects back. It rides on *HTTP so
// the run's budget, limiter, recording and redaction apply unchanged.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Header names of MCP's streamable-http transport.
const (
	MCPSessionHeader  = "Mcp-Session-Id"
	MCPProtocolHeader = "MCP-Protocol-Version"
	rpcAccept         = "application/json, text/event-stream"
)

// JSONRPCOptions configures a JSON-RPC client.
type JSONRPCOptions struct {
	// Path is the endpoint relative to the HTTP driver's base URL ("/mcp").
	Path string
	// Rule is the rule an answer that is not a well-formed JSON-RPC response
	// breaks; empty leaves it to the scenario's rule tag.
	Rule string
	// Header is sent on every request.
	Header map[string]string
}

// JSONRPC is a JSON-RPC 2.0 client bound to one endpoint and, once the
// server assigns one, one session.
type JSONRPC struct {
	http *HTTP
	path string
	rule string

	mu      sync.Mutex
	header  map[string]string
	nextID  int64
	session string
	last    *Response
	inbox   []json.RawMessage
}

// RPCError is a JSON-RPC error object the server answered with. Steps check
// Code against the contract (-32601 method not found, -32602 invalid params…).
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the error object.
func (e *RPCError) Error() string {
	return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message)
}

// NewJSONRPC returns a client posting to opts.Path through d.
func NewJSONRPC(d *HTTP, opts JSONRPCOptions) *JSONRPC {
	h := map[string]string{}
	for k, v := range opts.Header {
		h[k] = v
	}
	return &JSONRPC{http: d, path: opts.Path, rule: opts.Rule, header: h}
}

// SetHeader sets a header sent on every later request (an empty value
// removes it).
func (c *JSONRPC) SetHeader(name, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if value == "" {
		delete(c.header, name)
		return
	}
	c.header[name] = value
}

// SessionID returns the Mcp-Session-Id the server assigned ("" if none).
func (c *JSONRPC) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// LastResponse returns the raw HTTP answer to the latest call or
// notification, for steps that check statuses and headers themselves.
func (c *JSONRPC) LastResponse() *Response {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// ServerMessages returns the requests and notifications the server sent on
// event streams alongside responses (progress, logging), in arrival order.
func (c *JSONRPC) ServerMessages() []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]json.RawMessage(nil), c.inbox...)
}

// rpcRequest is a request or, without ID, a notification.
type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int64 `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// Call invokes method and decodes its result into result (nil discards it).
// An error object comes back as *RPCError; an answer that is not a JSON-RPC
// response to this request is a verdict failure of the client's rule;
// transport trouble is the HTTP driver's harness error.
func (c *JSONRPC) Call(ctx context.Context, method string, params, result any) error {
	id := c.newID()
	resp, err := c.post(ctx, rpcRequest{JSONRPC: "2.0", ID: &id, Method: method, Params: params})
	if err != nil {
		return err
	}
	msg, err := c.responseTo(id, resp)
	if err != nil {
		return err
	}
	return c.outcome(method, msg, result)
}

// Notify sends a notification. MCP answers 202 Accepted with no body; any
// 2xx is taken, anything else fails the client's rule.
func (c *JSONRPC) Notify(ctx context.Context, method string, params any) error {
	resp, err := c.post(ctx, rpcRequest{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		return err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return verdict.Failf(c.rule, "2xx (202 Accepted) for notification "+method, resp.Status, "body %s", c.http.Secrets().Clip(resp.Body))
	}
	return nil
}

// InitializeMCP runs MCP's opening handshake: initialize with the client's
// preferred protocol version, then the notifications/initialized
// notification. The negotiated version is sent as MCP-Protocol-Version on
// every later request, as streamable-http asks from 2025-06-18 on.
func (c *JSONRPC) InitializeMCP(ctx context.Context, version string, clientInfo any, result any) error {
	var raw json.RawMessage
	params := map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": clientInfo}
	if err := c.Call(ctx, "initialize", params, &raw); err != nil {
		return err
	}
	var got struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(raw, &got); err != nil || got.ProtocolVersion == "" {
		return verdict.Failf(c.rule, "an initialize result with protocolVersion", c.http.Secrets().Clip(raw), "")
	}
	c.SetHeader(MCPProtocolHeader, got.ProtocolVersion)
	if result != nil {
		if err := json.Unmarshal(raw, result); err != nil {
			return verdict.Failf(c.rule, fmt.Sprintf("an initialize result decodable as %T", result), c.http.Secrets().Clip(raw), "%v", err)
		}
	}
	return c.Notify(ctx, "notifications/initialized", nil)
}

func (c *JSONRPC) newID() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return c.nextID
}

// post sends one message with the sticky headers and keeps the session id
// the server assigns.
func (c *JSONRPC) post(ctx context.Context, msg rpcRequest) (*Response, error) {
	resp, err := c.http.Do(ctx, Request{Method: http.MethodPost, Path: c.path, Header: c.headers(), JSON: msg})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = resp
	if sid := resp.Header.Get(MCPSessionHeader); sid != "" {
		c.session = sid
	}
	return resp, nil
}

// headers snapshots what every request carries.
func (c *JSONRPC) headers() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := map[string]string{"Accept": rpcAccept}
	for k, v := range c.header {
		h[k] = v
	}
	if c.session != "" {
		h[MCPSessionHeader] = c.session
	}
	return h
}

// responseTo extracts the response with id from a JSON body or an event
// stream; other messages on a stream are kept for ServerMessages.
func (c *JSONRPC) responseTo(id int64, resp *Response) (map[string]json.RawMessage, error) {
	if !isEventStream(resp.Header.Get("Content-Type")) {
		msg, ok := decodeResponse(resp.Body, id)
		if !ok {
			return nil, verdict.Failf(c.rule, fmt.Sprintf("a JSON-RPC 2.0 response with id %d", id), c.http.Secrets().Clip(resp.Body),
				"status %d", resp.Status)
		}
		return msg, nil
	}
	var found map[string]json.RawMessage
	for _, ev := range ParseSSE(resp.Body) {
		if msg, ok := decodeResponse([]byte(ev.Data), id); ok && found == nil {
			found = msg
			continue
		}
		c.keep(json.RawMessage(ev.Data))
	}
	if found == nil {
		return nil, verdict.Failf(c.rule, fmt.Sprintf("an SSE data event holding the JSON-RPC response with id %d", id),
			c.http.Secrets().Clip(resp.Body), "status %d", resp.Status)
	}
	return found, nil
}

func (c *JSONRPC) keep(msg json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inbox = append(c.inbox, msg)
}

// outcome turns a response object into the call's result or *RPCError.
func (c *JSONRPC) outcome(method string, msg map[string]json.RawMessage, result any) error {
	if raw, ok := msg["error"]; ok {
		var e RPCError
		if err := json.Unmarshal(raw, &e); err != nil || e.Message == "" && e.Code == 0 {
			return verdict.Failf(c.rule, "an error object {code, message}", c.http.Secrets().Clip(raw), "method %s", method)
		}
		return &e
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(msg["result"], result); err != nil {
		return verdict.Failf(c.rule, fmt.Sprintf("a %s result decodable as %T", method, result), c.http.Secrets().Clip(msg["result"]), "%v", err)
	}
	return nil
}

// decodeResponse reports whether body is a JSON-RPC 2.0 response to id:
// version "2.0", the same id, and exactly one of result and error.
func decodeResponse(body []byte, id int64) (map[string]json.RawMessage, bool) {
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil {
		return nil, false
	}
	var version string
	var gotID any
	if json.Unmarshal(msg["jsonrpc"], &version) != nil || version != "2.0" ||
		json.Unmarshal(msg["id"], &gotID) != nil || !reflect.DeepEqual(gotID, float64(id)) {
		return nil, false
	}
	_, hasResult := msg["result"]
	_, hasError := msg["error"]
	return msg, hasResult != hasError
}

func isEventStream(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "text/event-stream"
}

// SSEEvent is one dispatched Server-Sent Event.
type SSEEvent struct {
	Event string // the event type ("" means "message")
	ID    string
	Data  string // data lines joined by "\n"
}

// ParseSSE splits an event-stream body into events following the HTML
// event-stream interpretation rules: lines end in CRLF, LF or CR; a line
// starting with ':' is a comment; one space after the field's colon is
// dropped; data lines accumulate; a blank line dispatches an event that has
// data; an unterminated last event is discarded, as a browser would.
func ParseSSE(body []byte) []SSEEvent {
	body = bytes.TrimPrefix(body, []byte("\uFEFF"))
	var out []SSEEvent
	var cur SSEEvent
	var data strings.Builder
	hasData := false
	for _, line := range sseLines(string(body)) {
		if line == "" {
			if hasData {
				cur.Data = strings.TrimSuffix(data.String(), "\n")
				out = append(out, cur)
			}
			cur, hasData = SSEEvent{ID: cur.ID}, false
			data.Reset()
			continue
		}
		field, value := sseField(line)
		switch field {
		case "data":
			data.WriteString(value + "\n")
			hasData = true
		case "event":
			cur.Event = value
		case "id":
			if !strings.ContainsRune(value, 0) {
				cur.ID = value
			}
		}
	}
	return out
}

// sseLines splits text into lines; the text after the last line ending (an
// incomplete line) is dropped, since its event can never be dispatched.
func sseLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	return lines[:len(lines)-1]
}

// sseField parses "field: value"; comments yield an empty field name.
func sseField(line string) (string, string) {
	if strings.HasPrefix(line, ":") {
		return "", ""
	}
	field, value, _ := strings.Cut(line, ":")
	return field, strings.TrimPrefix(value, " ")
}
