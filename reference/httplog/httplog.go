// Package httplog writes the reference servers' request log: one line per
// request with method, path, status and duration. It never logs the query,
// headers or bodies, since any of them may carry a key, and masks the
// request's own key where a careless agent repeats it in the path.
package httplog

import (
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// Handler wraps next so that every request it serves is logged to l. A nil
// logger returns next unchanged, so servers can wrap unconditionally.
func Handler(next http.Handler, l *log.Logger) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		l.Printf("%s %s %d %s", r.Method, maskedPath(r), sw.status, time.Since(start).Round(time.Microsecond))
	})
}

// maskedPath is the request's path with its key (audit.RequestKey: the
// Bearer key or a credential-named parameter's value) masked.
func maskedPath(r *http.Request) string {
	if key := audit.RequestKey(r); key != "" {
		return strings.ReplaceAll(r.URL.Path, key, "[redacted]")
	}
	return r.URL.Path
}

// statusWriter remembers the status a handler wrote, for the log line.
type statusWriter struct {
	http.ResponseWriter
	status int
}

// Unwrap exposes the wrapped writer, so a WebSocket upgrade (the Pyyol
// gateway) can still hijack the connection through the log.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// WriteHeader records the status and passes it on.
func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}
