package server

import (
	"encoding/json"
	"slices"
	"strconv"
)

// encodeFrame is json.Marshal(frame), byte for byte. A Frame whose
// payload encoding/json wrote itself (encoded, set by the frame
// constructors) is written field by field: json.Marshal would scan and
// compact the payload, a whole Monopoly view, once more for every frame
// sent (issue 19: the Pyyol tests' CPU). Anything else goes through
// json.Marshal. TestEncodeFrameIsJSONMarshal holds the two equal.
func encodeFrame(frame any) ([]byte, error) {
	f, ok := frame.(Frame)
	if !ok || !f.encoded || f.Practice != nil || len(f.Move) > 0 || len(f.Usage) > 0 {
		return json.Marshal(frame)
	}
	buf := make([]byte, 0, 96+len(f.Payload))
	buf = append(buf, `{"t":`...)
	buf = appendJSONString(buf, f.T)
	for _, s := range []struct{ key, value string }{{"id", f.ID}, {"agent_id", f.AgentID}, {"token", f.Token},
		{"agent_name", f.AgentName}, {"version", f.Version}} {
		buf = appendStringMember(buf, s.key, s.value)
	}
	if len(f.Games) > 0 {
		buf = append(buf, `,"games":[`...)
		for i, g := range f.Games {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, g)
		}
		buf = append(buf, ']')
	}
	for _, s := range []struct{ key, value string }{{"sdk_version", f.SDKVersion}, {"sdk_language", f.SDKLanguage},
		{"latest_sdk", f.LatestSDK}, {"min_sdk", f.MinSDK}, {"match_id", f.MatchID}, {"game", f.Game}} {
		buf = appendStringMember(buf, s.key, s.value)
	}
	if f.Seq != 0 {
		buf = strconv.AppendInt(append(buf, `,"seq":`...), int64(f.Seq), 10)
	}
	buf = appendStringMember(buf, "kind", f.Kind)
	if len(f.Payload) > 0 {
		buf = append(append(buf, `,"payload":`...), f.Payload...)
	}
	buf = appendStringMember(buf, "error", f.Error)
	buf = appendStringMember(buf, "reason", f.Reason)
	if f.Matches != 0 {
		buf = strconv.AppendInt(append(buf, `,"matches":`...), int64(f.Matches), 10)
	}
	return append(buf, '}'), nil
}

// appendStringMember appends `,"key":value` unless value is empty
// (omitempty).
func appendStringMember(buf []byte, key, value string) []byte {
	if value == "" {
		return buf
	}
	buf = append(append(append(buf, `,"`...), key...), `":`...)
	return appendJSONString(buf, value)
}

// appendJSONString appends s as encoding/json quotes it: printable ASCII
// without the characters it escapes is written as it stands, anything
// else through json.Marshal (HTML escaping, control characters, invalid
// UTF-8 and U+2028 alike).
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			return append(buf, b...)
		}
	}
	return append(append(append(buf, '"'), s...), '"')
}

// stampedObject writes the members of a JSON object as json.Marshal
// writes a map of them: keys sorted, each value as it stands (values
// read from encoding/json's own output are already compact and escaped).
func stampedObject(m map[string]json.RawMessage) json.RawMessage {
	keys := make([]string, 0, len(m))
	size := 2
	for k, v := range m {
		keys = append(keys, k)
		size += len(k) + len(v) + 4
	}
	slices.Sort(keys)
	buf := make([]byte, 0, size)
	buf = append(buf, '{')
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(appendJSONString(buf, k), ':')
		buf = append(buf, m[k]...)
	}
	return append(buf, '}')
}
