// Package httplog writes the reference servers' request log: one line per
// request with method, path, status and duration. It never logs the query,
// headers or bodies, since any of them may carry a key.
package httplog

import (
	"log"
	"net/http"
	"time"
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
		l.Printf("%s %s %d %s", r.Method, r.URL.Path, sw.status, time.Since(start).Round(time.Microsecond))
	})
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
