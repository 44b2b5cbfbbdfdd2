package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/faults"
)

// Faults are the failures the contract documents for writes, answered as
// the real quota answers them (reference/faults injects them on demand):
// every write but status counts, register in its own pool.
func Faults() []faults.Fault {
	return []faults.Fault{
		{
			// PP-QUOTA-429: over the limit, 429 daily_write_limit with
			// Retry-After and limit.reset_at; PP-QUOTA-REGISTER: register
			// has its own server-wide pool.
			Name: "daily_write_limit", Rule: "PP-QUOTA-429", Status: http.StatusTooManyRequests,
			Doc:     "Over the limit: 429 code=daily_write_limit (with Retry-After and limit.reset_at)",
			Applies: countedWrite,
			Answer: func(w http.ResponseWriter, now time.Time) {
				writeQuota(w, now, &overLimit{Code: "daily_write_limit", Scope: "agent", Max: DefaultLimits.WritesPerAgent, Used: DefaultLimits.WritesPerAgent})
			},
		},
		{
			Name: "daily_write_limit (register)", Rule: "PP-QUOTA-REGISTER", Status: http.StatusTooManyRequests,
			Doc:     "New registrations: 200/day server-wide; over the limit: 429 code=daily_write_limit",
			Applies: func(method, path string, _ []byte) bool { return method == http.MethodPost && path == "/register" },
			Answer: func(w http.ResponseWriter, now time.Time) {
				writeQuota(w, now, &overLimit{Code: "daily_write_limit", Scope: "register", Max: DefaultLimits.Registrations, Used: DefaultLimits.Registrations})
			},
		},
		{
			// PP-QUOTA-503: the quota cannot be checked.
			Name: "quota_unavailable", Rule: "PP-QUOTA-503", Status: http.StatusServiceUnavailable,
			Doc:     "If the quota cannot be checked: 503 code=quota_unavailable (Retry-After: 60)",
			Applies: countedWrite,
			Answer:  func(w http.ResponseWriter, _ time.Time) { writeUnavailable(w) },
		},
	}
}

// countedWrite reports whether a request is a write the daily limit counts:
// runs, action (but status), review, extend, visibility.
func countedWrite(method, path string, body []byte) bool {
	if method != http.MethodPost {
		return false
	}
	seg := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(seg) == 1 && seg[0] == "runs":
		return true
	case len(seg) == 3 && seg[0] == "runs" && seg[2] == "action":
		var a struct {
			Action string `json:"action"`
		}
		return json.Unmarshal(body, &a) == nil && a.Action != "" && a.Action != "status"
	case len(seg) == 3 && seg[0] == "runs":
		return seg[2] == "review" || seg[2] == "extend" || seg[2] == "visibility"
	}
	return false
}
