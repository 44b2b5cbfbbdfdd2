package server

import "encoding/json"

// optString is an optional string field of a request body: absent is
// allowed, a string is its value, and an explicit null is told apart so it
// can be refused (the seed types owner and seed as strings, and the OpenAPI
// document does not make them nullable).
type optString struct {
	set, null bool
	v         string
}

// UnmarshalJSON records the field's presence, and whether it was null.
func (o *optString) UnmarshalJSON(b []byte) error {
	o.set = true
	if string(b) == "null" {
		o.null = true
		return nil
	}
	return json.Unmarshal(b, &o.v)
}
