package server

import (
	"bytes"
	"net/http"

	"github.com/agentgames/conformance/reference/skeleton"
)

// actionBody is an action request: {action, arg}, both optional strings.
type actionBody struct {
	Action *string `json:"action"`
	Arg    *string `json:"arg"`
}

// readActionBody reads an action request under the input policy, as
// decodeBody does (PP-ERR-400, PP-INPUT-POLICY). The body every client
// sends, an object of plain strings named exactly action and arg, is read
// by a direct scan instead of a reflecting decoder (a seventh of a look's
// cost); any other body (escapes, other names or spellings, repeated
// keys, other types, malformed JSON) goes through decodeBody's own
// decoding, so every reading and refusal stays the policy's.
func readActionBody(r *http.Request) (actionBody, *skeleton.InputError) {
	raw, err := skeleton.ReadBody(r, maxBody)
	if err != nil {
		return actionBody{}, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	if body, ok := plainActionBody(raw); ok {
		return body, nil
	}
	var body actionBody
	return body, skeleton.DecodeStrict(raw, &body)
}

// plainActionBody reads raw when it is a plain object (skeleton.PlainObject)
// whose members are action and arg, each a string; ok is false for
// anything else, null included (left to the decoder).
func plainActionBody(raw []byte) (body actionBody, ok bool) {
	ms, ok := skeleton.PlainObject(raw)
	if !ok {
		return body, false
	}
	for _, m := range ms {
		if m.Kind != skeleton.PlainString {
			return body, false
		}
		switch m.Name {
		case "action":
			body.Action = &m.Str
		case "arg":
			body.Arg = &m.Str
		default:
			return body, false
		}
	}
	return body, true
}
