package skeleton

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// Encoded is a response rendered to bytes. A server builds it while it
// holds its lock (so the encoder reads a consistent state) and writes it
// after releasing the lock, so a client that never reads its answer
// blocks only its own connection, never the server.
type Encoded struct {
	Status int
	Header http.Header
	Body   []byte
}

// EncodeJSON renders v as a JSON answer with status. HTML characters are
// not escaped (bodies are JSON, not HTML). A value that cannot be encoded is
// a coded 500 whose message names no Go type.
//
// The encoding goes into a pooled buffer and the body is one exact-size
// copy of it, instead of a buffer grown step by step per answer.
func EncodeJSON(status int, v any) Encoded {
	buf := GetBuffer()
	defer PutBuffer(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return EncodeJSON(http.StatusInternalServerError, CodedError{Code: "internal", Message: "the answer could not be encoded"})
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json") // no charset: JSON is UTF-8 by definition (RFC 8259), one Content-Type everywhere
	return Encoded{Status: status, Header: h, Body: bytes.Clone(buf.Bytes())}
}

// Write sends e; call it after releasing any lock.
func (e Encoded) Write(w http.ResponseWriter) {
	for k, vs := range e.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(e.Body)
}

// CodedError is the smallest error body of the policy: a machine-readable
// code and a message for people. Servers whose contract documents more
// fields embed or extend it.
type CodedError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// WriteError answers a coded error at once (no lock may be held).
func WriteError(w http.ResponseWriter, status int, code, message string) {
	EncodeJSON(status, CodedError{Code: code, Message: message}).Write(w)
}

// WriteInputError answers a refused body under the input policy.
func WriteInputError(w http.ResponseWriter, e *InputError) {
	WriteError(w, e.Status, e.Code, e.Message)
}

// Buffered runs h against an in-memory response and copies it to the
// client only after h returned, with every lock h took released. Servers
// whose handlers write while holding a lock wrap themselves in it.
// The in-memory body comes from a pool and goes back once copied to the
// client, so a request does not grow a fresh buffer to its answer's size.
func Buffered(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := &bufferWriter{header: http.Header{}, body: GetBuffer()}
		h.ServeHTTP(buf, r)
		e := Encoded{Status: buf.status, Header: buf.header, Body: buf.body.Bytes()}
		if e.Status == 0 {
			e.Status = http.StatusOK
		}
		e.Write(w) // copies the body into the connection's own buffer
		PutBuffer(buf.body)
	})
}

// buffers recycles response buffers across requests.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse: a rare huge answer does
// not pin its memory in the pool.
const maxPooled = 1 << 20

// GetBuffer is an empty buffer from the response pool. Its bytes must not
// be used after PutBuffer.
func GetBuffer() *bytes.Buffer {
	b := buffers.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// PutBuffer returns b to the pool once nothing reads its bytes any more.
func PutBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooled {
		buffers.Put(b)
	}
}

// bufferWriter is the in-memory http.ResponseWriter of Buffered.
type bufferWriter struct {
	header http.Header
	status int
	body   *bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }

func (b *bufferWriter) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
