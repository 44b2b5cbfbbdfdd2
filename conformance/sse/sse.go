// Package sse reads the one JSON message a server-sent-events answer
// carries, so every reader of an MCP streamable-HTTP answer (the bounty's
// MCP client, the OpenAPI validator) takes the same bytes from it: a
// server may answer a JSON-RPC request as application/json or as a
// text/event-stream whose event holds the message.
package sse

import (
	"bytes"
	"mime"
	"strings"
)

// IsStream reports whether contentType is text/event-stream, in any case
// and with any parameters (media types are case-insensitive, RFC 9110).
func IsStream(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && strings.EqualFold(mt, "text/event-stream")
}

// LastData is the data of the last event in body that has any: its
// "data:" lines joined by newlines, one leading space after each colon
// dropped, as the HTML event-stream format reads them. Nil when no event
// carries data.
func LastData(body []byte) []byte {
	var last, cur []byte
	has := false
	flush := func() {
		if has {
			last = cur
		}
		cur, has = nil, false
	}
	for _, line := range bytes.Split(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			flush()
			continue
		}
		d, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // event:, id:, retry: and comments carry no data
		}
		d = bytes.TrimPrefix(d, []byte(" "))
		if has {
			cur = append(append(cur, '\n'), d...)
		} else {
			cur, has = append([]byte(nil), d...), true
		}
	}
	flush()
	return last
}
