package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/forge"
)

// Faults are the failures the contract documents, which reference/faults
// injects on demand: the per-key rate limit, 429 with Retry-After
// (FORGE-RATE-LIMIT), on every authenticated endpoint, as the limiter
// answers it.
func Faults() []faults.Fault {
	return []faults.Fault{{
		Name: "RATE_LIMITED", Rule: "FORGE-RATE-LIMIT", Status: http.StatusTooManyRequests,
		Doc:     "rate limits, and Retry-After",
		Applies: authenticated,
		Answer: func(w http.ResponseWriter, _ time.Time) {
			w.Header().Set("Retry-After", "1")
			writeError(w, &forge.Error{Status: 429, Code: "RATE_LIMITED", Message: "too many requests; retry after the Retry-After seconds"})
		},
	}}
}

// authenticated reports whether a request goes to an endpoint behind the
// Bearer key (and so behind the per-key limiter).
func authenticated(method, path string, _ []byte) bool {
	switch {
	case path == "/api/agent" || path == "/api/progress" || path == "/api/levels":
		return true
	case strings.HasPrefix(path, "/api/sessions"):
		return method == http.MethodPost
	}
	return false
}
