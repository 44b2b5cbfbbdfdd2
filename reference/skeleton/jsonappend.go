package skeleton

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A server whose answers are hot (every write of a mix) may write them
// field by field instead of through encoding/json's reflection; these are
// its leaves. Each writes exactly what an encoder of EncodeJSON's setting
// (HTML characters not escaped) writes, so the bytes on the wire do not
// change; TestAppendJSONStringIsEncodingJSON holds them to it.

// AppendJSONString appends s as a JSON string. Valid UTF-8 without a
// quote, a backslash, a control character or U+2028/U+2029 (the text of
// every pack) is copied as it is; any other string goes through
// encoding/json, so its escapes are encoding/json's own.
func AppendJSONString(b []byte, s string) []byte {
	if !plainJSON(s) {
		return append(b, MarshalJSON(s)...)
	}
	return append(append(append(b, '"'), s...), '"')
}

// plainJSON reports whether s needs no escape at all: one look-up per
// byte, and a UTF-8 check only for a string past ASCII.
func plainJSON(s string) bool {
	wide := false
	for i := 0; i < len(s); i++ {
		switch jsonClass[s[i]] {
		case escaped:
			return false
		case lead2028:
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				return false // U+2028, U+2029: encoding/json escapes them
			}
			wide = true
		case wideByte:
			wide = true
		}
	}
	return !wide || utf8.ValidString(s)
}

// The byte classes of plainJSON.
const (
	plainByte = iota // printable ASCII but the quote and the backslash
	escaped          // a control character, the quote, the backslash
	wideByte         // a byte of a multi-byte sequence
	lead2028         // 0xE2, which leads U+2028 and U+2029 among others
)

// jsonClass is each byte's class.
var jsonClass = func() (t [256]byte) {
	for c := range t {
		switch {
		case c < 0x20 || c == '"' || c == '\\':
			t[c] = escaped
		case c == 0xE2:
			t[c] = lead2028
		case c >= 0x80:
			t[c] = wideByte
		}
	}
	return t
}()

// MarshalJSON is v as EncodeJSON's encoder writes it, without its
// trailing newline; for the parts of an answer not worth writing by hand.
// A value that cannot be encoded is JSON null: callers pass only types
// that always encode.
func MarshalJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return []byte("null")
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
