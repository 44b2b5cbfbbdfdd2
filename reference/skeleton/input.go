package skeleton

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/agentgames/conformance/reference/skeleton/jsonscan"
)

// The input policy every reference server shares (DESIGN: "Input policy"),
// so that FORGE, the bounty and Pyyol refuse what Iyra and The Phantom
// Press refuse, with the same codes:
//
//   - a body must be exactly one JSON value, valid UTF-8, of at most the
//     server's size limit;
//   - no object in it may repeat a key (encoding/json would silently keep
//     the last one, so {"turns":1,"turns":9} would mean what a reader of the
//     first key does not expect);
//   - a request object may hold only the fields its endpoint documents;
//   - every refusal is a 400 (413 for size) with a machine-readable code
//     and a message in the contract's terms, never a Go type.

// Input error codes, shared by every reference server.
const (
	CodeInvalidJSON   = "invalid_json"
	CodeInvalidUTF8   = "invalid_utf8"
	CodeDuplicateKey  = "duplicate_key"
	CodeUnknownField  = "unknown_field"
	CodeWrongType     = "wrong_type"
	CodeBodyTooLarge  = "payload_too_large"
	CodeUnreadable    = "unreadable_body"
	CodeNotAnObject   = "not_an_object"
	DefaultMaxRequest = 64 << 10
)

// InputError is a request body the server refuses: Status (400 or 413), a
// machine-readable Code and a Message for people.
type InputError struct {
	Status  int
	Code    string
	Message string
}

// Error returns the message.
func (e *InputError) Error() string { return e.Message }

func inputErr(code, format string, args ...any) *InputError {
	return &InputError{Status: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// ReadBody reads a request body of at most max bytes (max <= 0:
// DefaultMaxRequest). A larger body is refused as such (413), never
// truncated and misread.
func ReadBody(r *http.Request, max int) ([]byte, *InputError) {
	if max <= 0 {
		max = DefaultMaxRequest
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, int64(max)+1))
	if err != nil {
		return nil, inputErr(CodeUnreadable, "the request body could not be read")
	}
	if len(raw) > max {
		return nil, &InputError{Status: http.StatusRequestEntityTooLarge, Code: CodeBodyTooLarge,
			Message: fmt.Sprintf("the request body exceeds %d bytes", max)}
	}
	return raw, nil
}

// ReadJSON reads a request body of at most max bytes (a route's limit;
// max <= 0: DefaultMaxRequest) and decodes it into v under the input
// policy; an empty body reads as {} (the fields' own checks then find what
// is missing). It is the one call a route needs: a body over the limit is
// refused read no further than it, and nothing is decoded before the
// structural checks (UTF-8, one object, no repeated key, the bounds).
func ReadJSON(r *http.Request, max int, v any) *InputError {
	raw, err := ReadBody(r, max)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	return DecodeStrict(raw, v)
}

// DecodeStrict decodes raw, one JSON object, into v (a pointer to a
// struct or a map) under the input policy. An empty body is refused too;
// callers that accept one pass "{}".
func DecodeStrict(raw []byte, v any) *InputError {
	if !utf8.Valid(raw) {
		return inputErr(CodeInvalidUTF8, "the body is not valid UTF-8")
	}
	if err := CheckJSON(raw); err != nil {
		return err
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return inputErr(CodeNotAnObject, "the body must be a JSON object")
	}
	return DecodeChecked(raw, v)
}

// DecodeChecked is DecodeStrict's decoding alone, for a body its caller
// already held to the same checks (valid UTF-8, CheckJSON, an object): a
// server that reads one body as one of two requests checks it once, not
// once per reading. Unknown fields and wrong types are refused in the
// policy's terms, as DecodeStrict refuses them.
func DecodeChecked(raw []byte, v any) *InputError {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describe(err)
	}
	return nil
}

// CheckJSON reports whether raw is exactly one JSON value in which no
// object repeats a key, within the default structural bounds
// (jsonscan.Bounds: 64 levels, 10 000 items an array or object, 100 000
// values): the scan stops at the first token past a bound, so a body far
// beyond them is refused at a cost bounded by them.
func CheckJSON(raw []byte) *InputError { return CheckJSONWithin(raw, jsonscan.Bounds{}) }

// CheckJSONWithin is CheckJSON under a route's own bounds. Nesting too
// deep is invalid JSON (400); too many items, values or string bytes are
// a body too large (413 payload_too_large), whatever its byte count.
func CheckJSONWithin(raw []byte, b jsonscan.Bounds) *InputError {
	err := jsonscan.Scan(raw, b)
	if err == nil {
		return nil
	}
	switch err.Code {
	case jsonscan.CodeDuplicateKey:
		return inputErr(CodeDuplicateKey, "%s", err.Message)
	case jsonscan.CodeInvalidJSON, jsonscan.CodeTooDeep:
		return inputErr(CodeInvalidJSON, "%s", err.Message)
	}
	return &InputError{Status: http.StatusRequestEntityTooLarge, Code: CodeBodyTooLarge, Message: err.Message}
}

// describe turns a decoding error into the policy's terms: the field and
// the JSON kind expected, never a Go type.
func describe(err error) *InputError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "the body"
		}
		return inputErr(CodeWrongType, "field %s must be %s, not a JSON %s", field, jsonKind(te.Type), te.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return inputErr(CodeUnknownField, "field %s is not part of this request", name)
	}
	return inputErr(CodeInvalidJSON, "the body is not a valid request object")
}

// jsonKind names the JSON kind a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
