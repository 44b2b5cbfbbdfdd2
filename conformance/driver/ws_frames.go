package driver

// Frame helpers of the WebSocket driver: matchers that pair a response
// frame with its request, frame encoding, and heartbeat answering.

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/agentgames/conformance/conformance/verdict"
)

// FieldEquals returns a frame matcher accepting JSON objects whose top-level
// field equals value (compared after a JSON round trip, so 7 matches 7.0).
// It suits correlation ids and frame types alike: FieldEquals("t", "registered").
func FieldEquals(field string, value any) func(json.RawMessage) bool {
	want := normalise(value)
	return func(frame json.RawMessage) bool {
		var fields map[string]json.RawMessage
		if json.Unmarshal(frame, &fields) != nil {
			return false
		}
		raw, ok := fields[field]
		if !ok {
			return false
		}
		var got any
		return json.Unmarshal(raw, &got) == nil && reflect.DeepEqual(got, want)
	}
}

// normalise turns v into what encoding/json decodes its encoding to.
func normalise(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// encodeFrame marshals a frame; raw bytes go verbatim.
func encodeFrame(frame any) ([]byte, error) {
	switch f := frame.(type) {
	case json.RawMessage:
		return bytes.Clone(f), nil
	case []byte:
		return bytes.Clone(f), nil
	}
	b, err := json.Marshal(frame)
	if err != nil {
		return nil, verdict.Errorf("encoding frame: %v", err)
	}
	return b, nil
}

// TypeHeartbeat returns a Heartbeat for envelopes that name their kind in a
// type field, as Pyyol's {"t":"ping"} / {"t":"pong"} do: a ping is answered
// with a pong (echoing the ping's id, if any) and a pong is swallowed.
func TypeHeartbeat(field, ping, pong string) func(json.RawMessage) (any, bool) {
	isPing, isPong := FieldEquals(field, ping), FieldEquals(field, pong)
	return func(frame json.RawMessage) (any, bool) {
		switch {
		case isPing(frame):
			reply := map[string]any{field: pong}
			var in map[string]json.RawMessage
			if json.Unmarshal(frame, &in) == nil && in["id"] != nil {
				reply["id"] = in["id"]
			}
			return reply, true
		case isPong(frame):
			return nil, true
		}
		return nil, false
	}
}
