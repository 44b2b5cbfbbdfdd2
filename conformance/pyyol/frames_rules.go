package pyyol

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// leaves lists the innermost errors of a validation failure, in order:
// each names the one keyword that failed.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// firstLeaf describes the first failing keyword and where in the value.
func firstLeaf(e *jsonschema.ValidationError) string {
	l := leaves(e)[0]
	return "at /" + strings.Join(l.InstanceLocation, "/") + ": " + l.Error()
}

// ruleOf is the rule a validation failure breaks: for its first failing
// keyword that names one, the x-rule annotation nearest it on the path
// from its schema's root (a missing property names its object's
// x-required-rule, else the property's own x-rule).
func (b *schemaBook) ruleOf(e *jsonschema.ValidationError) string {
	for _, l := range leaves(e) {
		if rule := b.leafRule(l); rule != "" {
			return rule
		}
	}
	return ""
}

// leafRule walks one failing keyword's schema location.
func (b *schemaBook) leafRule(l *jsonschema.ValidationError) string {
	file, ptr, _ := strings.Cut(l.SchemaURL, "#")
	name := strings.TrimSuffix(file[strings.LastIndex(file, "/")+1:], ".json")
	node, rule := b.docs[name], ""
	rule = annotated(node, rule)
	for _, tok := range pointerTokens(ptr) {
		node = child(node, tok)
		rule = annotated(node, rule)
	}
	if req, ok := l.ErrorKind.(*kind.Required); ok && len(req.Missing) > 0 {
		// A missing property names the rule that requires it: the
		// object's x-required-rule, else the property's own x-rule.
		props, _ := child(node, "properties").(map[string]any)
		rule = annotated(props[req.Missing[0]], rule)
		if m, ok := node.(map[string]any); ok {
			if r, ok := m["x-required-rule"].(string); ok {
				rule = r
			}
		}
	}
	return rule
}

// annotated returns node's x-rule, or rule when it has none.
func annotated(node any, rule string) string {
	if m, ok := node.(map[string]any); ok {
		if r, ok := m["x-rule"].(string); ok {
			return r
		}
	}
	return rule
}

// child steps into an object member or array element.
func child(node any, tok string) any {
	switch n := node.(type) {
	case map[string]any:
		return n[tok]
	case []any:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n) {
			return n[i]
		}
	}
	return nil
}

// pointerTokens splits a URL-fragment JSON pointer into its tokens.
func pointerTokens(ptr string) []string {
	if p, err := url.PathUnescape(ptr); err == nil {
		ptr = p
	}
	ptr = strings.TrimPrefix(ptr, "/")
	if ptr == "" {
		return nil
	}
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}
