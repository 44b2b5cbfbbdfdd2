package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// Auditor watches agents for the contract's rules for agents (serve
// --audit); each check cites the rule it audits.
type Auditor struct {
	waits map[string]wait // agent -> the write it must not send before
}

// wait is a quota answer's Retry-After: until when, and the rule it sets.
type wait struct {
	until time.Time
	rule  string
}

// NewAuditor returns an empty Phantom Press audit.
func NewAuditor() audit.Watcher { return &Auditor{waits: map[string]wait{}} }

// Watch checks one exchange.
func (a *Auditor) Watch(ex *audit.Exchange) []audit.Finding {
	var out []audit.Finding
	add := func(rule, detail string) {
		out = append(out, audit.Finding{Rule: rule, Request: ex.Request(), At: ex.At, Detail: detail})
	}
	counted := countedWrite(ex.Method, ex.Path, ex.Body) || (ex.Method == http.MethodPost && ex.Path == "/register")
	// PP-AGENT-RETRY-AFTER, PP-AGENT-WAIT-503: no counted write before the quota answer's Retry-After.
	if w, ok := a.waits[ex.Agent]; ok && counted && ex.At.Before(w.until) {
		add(w.rule, "a write "+w.until.Sub(ex.At).Round(time.Millisecond).String()+" before Retry-After allowed")
		delete(a.waits, ex.Agent)
	}
	if ex.Method == http.MethodPost && ex.Path == "/runs" {
		var body map[string]json.RawMessage
		// PP-AGENT-BUDGET-TURNS: a run starts with the agreed budget_turns.
		if json.Unmarshal(ex.Body, &body) == nil && body["budget_turns"] == nil {
			add("PP-AGENT-BUDGET-TURNS", "a run started without budget_turns")
		}
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(ex.RespHeader.Get("Retry-After"))); err == nil && counted {
		switch ex.Status {
		case http.StatusTooManyRequests:
			a.waits[ex.Agent] = wait{until: ex.At.Add(time.Duration(secs) * time.Second), rule: "PP-AGENT-RETRY-AFTER"}
		case http.StatusServiceUnavailable:
			a.waits[ex.Agent] = wait{until: ex.At.Add(time.Duration(secs) * time.Second), rule: "PP-AGENT-WAIT-503"}
		}
	}
	return out
}
