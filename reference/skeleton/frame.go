package skeleton

import (
	"bytes"
	"unicode/utf8"
)

// CodeBinaryFrame refuses a WebSocket frame sent as binary where the
// protocol speaks JSON text frames.
const CodeBinaryFrame = "binary_frame"

// CheckFrame applies the input policy to one WebSocket message: a JSON
// protocol's frames are text (RFC 6455 text frames carry UTF-8), so a
// binary frame is refused whatever it holds, as is a text frame that is
// not valid UTF-8, not one JSON object, or repeats a key. A server reads a
// refused frame as no frame of any type, never as the frame it resembles
// (a binary {"t":"response",...} is not a response).
func CheckFrame(binary bool, data []byte) *InputError {
	if binary {
		return inputErr(CodeBinaryFrame, "frames are JSON text frames; a binary frame is not read")
	}
	if !utf8.Valid(data) {
		return inputErr(CodeInvalidUTF8, "the frame is not valid UTF-8")
	}
	if err := CheckJSON(data); err != nil {
		return err
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return inputErr(CodeNotAnObject, "a frame must be a JSON object")
	}
	return nil
}
