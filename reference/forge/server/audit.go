package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// Auditor watches agents for the contract's rules for agents (serve
// --audit); each check cites the rule it audits.
type Auditor struct {
	agents   map[string]*forgeAgent
	sessions map[string]*forgeSession
}

type forgeAgent struct {
	retryUntil time.Time
	levels     map[string]string // level body -> the Idempotency-Key it was first sent under
}

type forgeSession struct {
	challenges [][]int64
	submitted  bool
}

// NewAuditor returns an empty FORGE audit.
func NewAuditor() audit.Watcher {
	return &Auditor{agents: map[string]*forgeAgent{}, sessions: map[string]*forgeSession{}}
}

// sessionPath is a session's own path and what follows it.
var sessionPath = regexp.MustCompile(`^/api/sessions/([^/]+)/(query|submit)$`)

// Watch checks one exchange.
func (a *Auditor) Watch(ex *audit.Exchange) []audit.Finding {
	ag := a.agents[ex.Agent]
	if ag == nil {
		ag = &forgeAgent{levels: map[string]string{}}
		a.agents[ex.Agent] = ag
	}
	var out []audit.Finding
	add := func(rule, detail string) {
		out = append(out, audit.Finding{Rule: rule, Request: ex.Request(), At: ex.At, Detail: detail})
	}
	// FORGE-AGENT-NO-URL-KEY: the key goes only in the Authorization header.
	if ex.Key != "" && strings.Contains(ex.Path+"?"+ex.RawQuery, ex.Key) {
		add("FORGE-AGENT-NO-URL-KEY", "the request URL carries the agent's key")
	}
	// FORGE-AGENT-RETRY-AFTER: nothing before a 429's Retry-After.
	if ex.Key != "" && ex.At.Before(ag.retryUntil) {
		add("FORGE-AGENT-RETRY-AFTER", "a request "+ag.retryUntil.Sub(ex.At).Round(time.Millisecond).String()+" before Retry-After allowed")
		ag.retryUntil = time.Time{}
	}
	switch m := sessionPath.FindStringSubmatch(ex.Path); {
	case ex.Method == http.MethodPost && ex.Path == "/api/sessions":
		a.watchOpen(ex, add)
	case ex.Method == http.MethodPost && m != nil && m[2] == "query":
		a.watchQuery(ex, m[1], add)
	case ex.Method == http.MethodPost && m != nil && m[2] == "submit":
		a.watchSubmit(ex, m[1], add)
	case ex.Method == http.MethodPost && ex.Path == "/api/levels":
		watchAuthoring(ex, ag, add)
	}
	if ex.Status == http.StatusTooManyRequests {
		secs, err := strconv.Atoi(ex.RespHeader.Get("Retry-After"))
		if err == nil {
			ag.retryUntil = ex.At.Add(time.Duration(secs) * time.Second)
		}
	}
	return out
}

// watchOpen checks a session opening's body and remembers the session's
// challenge inputs.
func (a *Auditor) watchOpen(ex *audit.Exchange, add func(rule, detail string)) {
	// FORGE-AGENT-EMPTY-SESSION-BODY: the exact body {}; never send levelId.
	if string(bytes.TrimSpace(ex.Body)) != "{}" {
		add("FORGE-AGENT-EMPTY-SESSION-BODY", "a session opened with a body other than {}")
	}
	var s struct {
		SessionID       string    `json:"sessionId"`
		ChallengeInputs [][]int64 `json:"challengeInputs"`
	}
	if ex.Status/100 == 2 && json.Unmarshal(ex.RespBody, &s) == nil && s.SessionID != "" {
		a.sessions[s.SessionID] = &forgeSession{challenges: s.ChallengeInputs}
	}
}

// watchQuery checks that a probe is not one of the session's challenge inputs.
func (a *Auditor) watchQuery(ex *audit.Exchange, id string, add func(rule, detail string)) {
	var q struct {
		Input []int64 `json:"input"`
	}
	s := a.sessions[id]
	if s == nil || json.Unmarshal(ex.Body, &q) != nil {
		return
	}
	for _, c := range s.challenges {
		if slices.Equal(c, q.Input) {
			// FORGE-AGENT-NO-CHALLENGE-PROBE: do not query challengeInputs directly.
			add("FORGE-AGENT-NO-CHALLENGE-PROBE", "a probe equal to one of the session's challenge inputs")
			return
		}
	}
}

// watchSubmit checks the session's one submission.
func (a *Auditor) watchSubmit(ex *audit.Exchange, id string, add func(rule, detail string)) {
	s := a.sessions[id]
	if s == nil {
		return
	}
	// FORGE-AGENT-ONE-SUBMISSION: one submission per session.
	if s.submitted {
		add("FORGE-AGENT-ONE-SUBMISSION", "a second submission on one session")
	}
	if ex.Status/100 == 2 {
		s.submitted = true
	}
}

// watchAuthoring checks an agent authors at most one logical level, its
// retries under one Idempotency-Key.
func watchAuthoring(ex *audit.Exchange, ag *forgeAgent, add func(rule, detail string)) {
	var buf bytes.Buffer
	body := string(ex.Body)
	if json.Compact(&buf, ex.Body) == nil {
		body = buf.String()
	}
	key := ex.Header.Get("Idempotency-Key")
	first, seen := ag.levels[body]
	switch {
	case seen && first != key:
		// FORGE-AGENT-LEVEL-KEY-STABLE: one stable Idempotency-Key for its retries.
		add("FORGE-AGENT-LEVEL-KEY-STABLE", "the same level sent again under another Idempotency-Key")
	case !seen && len(ag.levels) > 0:
		// FORGE-AGENT-ONE-LEVEL: at most one logical new level.
		add("FORGE-AGENT-ONE-LEVEL", "a second logical level authored")
	}
	if !seen {
		ag.levels[body] = key
	}
}
