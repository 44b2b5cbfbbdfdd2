// Package oas validates every response the runner sees against the
// protocol's OpenAPI 3 document (spec/<protocol>/openapi.yaml), using
// kin-openapi to load the document and validate JSON against its schemas. A
// mismatch is a rule failure that names the operation.
//
// Routing and response selection are done here rather than with
// openapi3filter: the target's base URL is only known at run time, and
// resolving each operation's response schemas once at load leaves a single
// schema visit per response. That halves the validation cost, which is most
// of the driver's own per-request overhead (see the driver's
// BenchmarkDriverMicro); answers that already matched are remembered
// (passed.go).
package oas

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/agentgames/conformance/conformance/sse"
	"github.com/agentgames/conformance/conformance/verdict"
)

// Validator checks responses of one protocol.
type Validator struct {
	doc         *openapi3.T
	base        string // URL path prefix of the target, e.g. "/api/v5"
	routes      []route
	defaultRule string
	passed      passedCache
}

type route struct {
	segments []string // literal segments, or "" for a {param}
	names    []string // parameter name per segment, "" for literals
	template string
	method   string
	item     *openapi3.PathItem
	op       *openapi3.Operation
	rule     string
	// bodies maps a documented status ("200", "4XX", "default") to its JSON
	// schema, resolved once at load so each check is a single schema visit.
	bodies map[string]*openapi3.Schema
	// streams holds the statuses documented as text/event-stream too: an
	// answer of that type is judged by the JSON message its event carries.
	streams map[string]bool
}

// Load parses and validates an OpenAPI document. base is the URL path the
// target serves it under; defaultRule is the catalogue rule a mismatch breaks
// when the operation names none with `x-rule`.
func Load(data []byte, base, defaultRule string) (*Validator, error) {
	doc, err := Parse(data)
	if err != nil {
		return nil, err
	}
	v := &Validator{doc: doc, base: strings.TrimRight(base, "/"), defaultRule: defaultRule}
	for template, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			v.routes = append(v.routes, newRoute(template, method, item, op, defaultRule))
		}
	}
	return v, nil
}

// Parse loads an OpenAPI 3 document and checks it is valid, for the
// validator and for the tests that hold a reference server to its document.
func Parse(data []byte) (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("oas: parsing document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("oas: invalid document: %w", err)
	}
	return doc, nil
}

func newRoute(template, method string, item *openapi3.PathItem, op *openapi3.Operation, rule string) route {
	r := route{template: template, method: method, item: item, op: op, rule: rule, bodies: bodySchemas(op), streams: streamStatuses(op)}
	if id, ok := op.Extensions["x-rule"].(string); ok && id != "" {
		r.rule = id
	}
	for _, seg := range splitPath(template) {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			r.segments = append(r.segments, "")
			r.names = append(r.names, seg[1:len(seg)-1])
			continue
		}
		r.segments = append(r.segments, seg)
		r.names = append(r.names, "")
	}
	return r
}

// bodySchemas collects the application/json schema of every documented
// response; a response documented without a body maps to nil.
func bodySchemas(op *openapi3.Operation) map[string]*openapi3.Schema {
	out := map[string]*openapi3.Schema{}
	for code, ref := range op.Responses.Map() {
		var schema *openapi3.Schema
		if ref.Value != nil {
			if mt := ref.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
				schema = mt.Schema.Value
			}
		}
		out[code] = schema
	}
	return out
}

// streamStatuses lists the documented responses whose content includes
// text/event-stream.
func streamStatuses(op *openapi3.Operation) map[string]bool {
	out := map[string]bool{}
	for code, ref := range op.Responses.Map() {
		if ref.Value != nil && ref.Value.Content.Get("text/event-stream") != nil {
			out[code] = true
		}
	}
	return out
}

// schemaFor finds the documented response for status: exact code, then the
// NXX range, then default.
func (r *route) schemaFor(status int) (*openapi3.Schema, bool) {
	key, ok := r.statusKey(status)
	return r.bodies[key], ok
}

// statusKey is the key of the documented response for status.
func (r *route) statusKey(status int) (string, bool) {
	for _, key := range []string{strconv.Itoa(status), fmt.Sprintf("%dXX", status/100), "default"} {
		if _, ok := r.bodies[key]; ok {
			return key, true
		}
	}
	return "", false
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// find matches a request path below the base to an operation, preferring
// literal segments over parameters (so /runs/recent beats /runs/{id}).
// It runs for every response the runner sees, so it walks the path's
// segments in place and allocates nothing.
func (v *Validator) find(method, path string) *route {
	rest, ok := strings.CutPrefix(path, v.base)
	if !ok {
		return nil
	}
	rest = strings.Trim(rest, "/")
	var best *route
	bestLiterals := -1
	for i := range v.routes {
		r := &v.routes[i]
		if literals, ok := r.match(method, rest); ok && literals > bestLiterals {
			best, bestLiterals = r, literals
		}
	}
	return best
}

// match reports whether the trimmed path rest is r's template for method,
// and how many of its segments are literals. It reads rest as
// strings.Split(rest, "/") would split it ("" is no segment at all).
func (r *route) match(method, rest string) (int, bool) {
	if r.method != method {
		return 0, false
	}
	if rest == "" {
		return 0, len(r.segments) == 0
	}
	literals, more := 0, true
	for i := range r.segments {
		if !more {
			return 0, false
		}
		seg, tail, found := strings.Cut(rest, "/")
		switch {
		case r.names[i] != "":
		case r.segments[i] == seg:
			literals++
		default:
			return 0, false
		}
		rest, more = tail, found
	}
	return literals, !more
}

// Validate checks one response. It returns nil when it matches, and a
// *verdict.Failure naming the operation when it does not, or when the
// request hit no documented operation.
func (v *Validator) Validate(req *http.Request, status int, header http.Header, body []byte, tree func() (any, error)) error {
	r := v.find(req.Method, req.URL.Path)
	if r == nil {
		return verdict.Failf(v.defaultRule, "a documented operation", req.Method+" "+req.URL.Path,
			"the runner sent a request the OpenAPI document does not describe")
	}
	if v.passed.has(r, status, body) {
		return nil
	}
	if key, ok := r.statusKey(status); ok && r.streams[key] && sse.IsStream(header.Get("Content-Type")) {
		// A documented event stream is judged by the message its last
		// event carries (the MCP streamable-HTTP transport answers either
		// way), not by the stream's own bytes.
		body, tree = sse.LastData(body), nil
	}
	if err := r.check(status, body, tree); err != nil {
		rule := r.rule
		if _, documented := r.schemaFor(status); !documented {
			// Which statuses an operation answers is the document's own
			// choice where the contract names none: the steps check the
			// statuses the contract fixes, so an undocumented one breaks
			// only the document's rule, never the operation's x-rule.
			rule = v.defaultRule
		}
		return verdict.Failf(rule, fmt.Sprintf("a response matching operation %s (%s %s)", r.op.OperationID, r.method, r.template),
			fmt.Sprintf("status %d", status), "%s", firstLine(err.Error()))
	}
	v.passed.add(r, status, body)
	return nil
}

// check validates status and body against the operation.
func (r *route) check(status int, body []byte, tree func() (any, error)) error {
	schema, ok := r.schemaFor(status)
	switch {
	case !ok:
		return fmt.Errorf("status %d is not documented for this operation", status)
	case schema == nil:
		return nil
	}
	value, err := decoded(body, tree)
	if err != nil {
		return fmt.Errorf("body is not JSON: %v", err)
	}
	return schema.VisitJSON(value)
}

// decoded is body as generic JSON: tree's value when the caller has one
// (the driver's response decodes its body once for every reader), else
// body decoded here. VisitJSON only reads it.
func decoded(body []byte, tree func() (any, error)) (any, error) {
	if tree != nil {
		return tree()
	}
	var value any
	err := json.Unmarshal(body, &value)
	return value, err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
