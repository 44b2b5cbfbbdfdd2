package tamper

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
)

// RequestEdit may rewrite a request (headers, path) and returns the body
// the wrapped server sees.
type RequestEdit func(r *http.Request, body []byte) []byte

// ResponseEdit may rewrite a JSON object answer and its status before the
// runner sees it; r is the request as the wrapped server saw it.
type ResponseEdit func(r *http.Request, status *int, body map[string]any)

// Wrap returns h behind the edits: req rewrites each request, resp each
// answer whose body is a JSON object. Either may be nil. Other answers pass
// through unchanged.
func Wrap(h http.Handler, req RequestEdit, resp ResponseEdit) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if req != nil {
			body = req(r, body)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		out, status := rec.Body.Bytes(), rec.Code
		var m map[string]any
		if resp != nil && json.Unmarshal(out, &m) == nil && m != nil {
			resp(r, &status, m)
			out, _ = json.Marshal(m)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(status)
		_, _ = w.Write(out)
	})
}

// Responses rewrites every JSON object answer of h with edit.
func Responses(h http.Handler, edit ResponseEdit) http.Handler { return Wrap(h, nil, edit) }

// Requests rewrites every request to h with edit.
func Requests(h http.Handler, edit RequestEdit) http.Handler { return Wrap(h, edit, nil) }

// Route sends the requests match accepts to broken and the rest to h.
func Route(h http.Handler, match func(r *http.Request) bool, broken http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if match(r) {
			broken.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Recode is the edit that answers every refusal coded from with status
// and code instead: the shape of an implementer's slip that renames a
// documented code or picks another status for it.
func Recode(from string, status int, code string) ResponseEdit {
	return func(_ *http.Request, st *int, m map[string]any) {
		if m["code"] == from {
			*st, m["code"] = status, code
		}
	}
}
