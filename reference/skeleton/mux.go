package skeleton

import (
	"bytes"
	"net/http"
)

// CodedMux serves mux, answering what mux has no route for with the
// policy's coded JSON errors instead of net/http's plain-text ones: an
// unknown path is 404 not_found, a known path asked with another method is
// 405 method_not_allowed with its Allow header. Routed requests (redirects
// included) go to mux unchanged.
func CodedMux(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		probe := &bufferWriter{header: http.Header{}, body: new(bytes.Buffer)}
		h.ServeHTTP(probe, r) // net/http's own answer: 404, or 405 with Allow
		if probe.status == http.StatusMethodNotAllowed {
			allow := probe.header.Get("Allow")
			w.Header().Set("Allow", allow)
			WriteError(w, http.StatusMethodNotAllowed, "method_not_allowed", "this endpoint answers "+allow)
			return
		}
		WriteError(w, http.StatusNotFound, "not_found", "no such endpoint")
	})
}
