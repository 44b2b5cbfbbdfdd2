package phantompress

import "encoding/json"

// hasKey reports whether a JSON object body holds key at its top level.
func hasKey(body []byte, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// holdsPair reports whether some object in body holds both numbers a and b.
func holdsPair(body []byte, a, b int) bool {
	var v any
	json.Unmarshal(body, &v)
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			ha, hb := false, false
			for _, c := range x {
				if f, ok := c.(float64); ok {
					ha, hb = ha || int(f) == a, hb || int(f) == b
				}
				if walk(c) {
					return true
				}
			}
			return ha && hb
		case []any:
			for _, c := range x {
				if walk(c) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// withoutState drops the top-level state object of a log body, whose turn
// and budget could pose as an extension's figures.
func withoutState(body []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return body
	}
	delete(m, "state")
	out, _ := json.Marshal(m)
	return out
}
