package tamper

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
)

// Respelling is how a faithful deployment may spell its wire differently
// from the reference without breaking a contract that leaves the spelling
// open: its identifiers, its success statuses, its content type. Nil
// fields change nothing.
type Respelling struct {
	// Path maps a request path from the deployment's spelling back to the
	// reference's, the inverse of what Body does to identifiers.
	Path func(path string) string
	// Request rewrites every request body from the deployment's spelling
	// back to the reference's.
	Request func(body []byte) []byte
	// Body rewrites every answer's bytes.
	Body func(body []byte) []byte
	// Status maps an answer's status.
	Status func(r *http.Request, status int) int
	// ContentType replaces a JSON answer's Content-Type.
	ContentType string
}

// Respell serves h behind s, so a faithful-variant test can take an open
// choice the other way in a few lines and hold the runner to accepting it.
func Respell(h http.Handler, s Respelling) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Path != nil {
			r.URL.Path = s.Path(r.URL.Path)
			r.URL.RawPath = ""
		}
		if s.Request != nil && r.Body != nil {
			raw, _ := io.ReadAll(r.Body)
			raw = s.Request(raw)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			r.ContentLength = int64(len(raw))
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body, status := rec.Body.Bytes(), rec.Code
		if s.Body != nil {
			body = s.Body(body)
		}
		if s.Status != nil {
			status = s.Status(r, status)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		if s.ContentType != "" && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
			w.Header().Set("Content-Type", s.ContentType)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
}

// ReversedTopKeys re-encodes a JSON object answer with its top-level keys
// in reverse alphabetical order (a Respelling.Body): JSON objects are
// unordered, so a faithful deployment may write them in any order. Any
// other body is left as it is.
func ReversedTopKeys(body []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m == nil {
		return body
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(keys)))
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}
