package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// Auditor watches agents for the contract's rules for agents (serve
// --audit); each check cites the rule it audits.
type Auditor struct {
	agents   map[string]*agentWatch
	keys     map[string]string // Idempotency-Key -> slug and version it created
	sessions map[string]bool   // session id -> an action was rejected and state not read since
}

// agentWatch is what the audit remembers of one agent.
type agentWatch struct {
	retryUntil time.Time
	// uncertain maps the intent of a creation that got no session (slug
	// and body) to the Idempotency-Key it was sent under.
	uncertain map[string]string
	// unreplayed holds the agent's finished sessions whose replay it has
	// not read yet.
	unreplayed map[string]bool
}

// NewAuditor returns an empty Iyra audit.
func NewAuditor() audit.Watcher {
	return &Auditor{agents: map[string]*agentWatch{}, keys: map[string]string{}, sessions: map[string]bool{}}
}

// aaKey is the shape of an Iyra agent key, to recognise one in a URL.
var aaKey = regexp.MustCompile(`aa_[A-Za-z0-9]{8,}`)

// Watch checks one exchange.
func (a *Auditor) Watch(ex *audit.Exchange) []audit.Finding {
	w := a.agents[ex.Agent]
	// A key is issued only at verification, so a key seen before is a verified agent's.
	verified := w != nil && ex.Key != ""
	if w == nil {
		w = &agentWatch{uncertain: map[string]string{}, unreplayed: map[string]bool{}}
		a.agents[ex.Agent] = w
	}
	var out []audit.Finding
	add := func(rule, detail string) {
		out = append(out, audit.Finding{Rule: rule, Request: ex.Request(), At: ex.At, Detail: detail})
	}
	// IYRA-AGENT-NO-URL-KEY: never put the key in a URL.
	if url := ex.Path + "?" + ex.RawQuery; aaKey.MatchString(url) || (ex.Key != "" && strings.Contains(url, ex.Key)) {
		add("IYRA-AGENT-NO-URL-KEY", "the request URL carries an agent key")
	}
	if ex.Method == http.MethodPost {
		// IYRA-AGENT-RETRY-AFTER: no write before retry_after_seconds or retry_at.
		if ex.At.Before(w.retryUntil) {
			add("IYRA-AGENT-RETRY-AFTER", "a write "+w.retryUntil.Sub(ex.At).Round(time.Millisecond).String()+" before the retry hint allowed")
			w.retryUntil = time.Time{}
		}
	}
	// IYRA-AGENT-NO-REACCEPT: a verified agent reuses its key instead of accepting again.
	if ex.Method == http.MethodPost && ex.Path == "/tasks/play/accept" && verified {
		add("IYRA-AGENT-NO-REACCEPT", "a verified agent accepted again")
	}
	switch {
	case ex.Method == http.MethodPost && strings.HasPrefix(ex.Path, "/store/") && strings.HasSuffix(ex.Path, "/sessions"):
		// IYRA-AGENT-REPLAY-BEFORE-NEXT: a finished session's replay is read before another task.
		if len(w.unreplayed) > 0 {
			add("IYRA-AGENT-REPLAY-BEFORE-NEXT", "a new session before reading the replay of a finished one")
			clear(w.unreplayed)
		}
		a.watchCreation(ex, w, add)
	case ex.Method == http.MethodPost && strings.HasPrefix(ex.Path, "/sessions/") && strings.HasSuffix(ex.Path, "/actions"):
		a.watchAction(ex, add)
	case ex.Method == http.MethodGet && strings.HasPrefix(ex.Path, "/sessions/") && strings.Count(ex.Path, "/") == 2:
		delete(a.sessions, strings.TrimPrefix(ex.Path, "/sessions/"))
	case ex.Method == http.MethodGet && strings.HasPrefix(ex.Path, "/sessions/") && strings.HasSuffix(ex.Path, "/replay"):
		delete(w.unreplayed, strings.TrimSuffix(strings.TrimPrefix(ex.Path, "/sessions/"), "/replay"))
	}
	if id, done := finished(ex); done {
		w.unreplayed[id] = true
	}
	if ex.Status == http.StatusTooManyRequests {
		w.retryUntil = retryHint(ex)
	}
	return out
}

// IssuedKeys is the api_key a 2xx answer discloses (verification hands it
// out once), so the audit knows it as that agent's key even when the
// agent then sends it only in a URL (IYRA-AGENT-NO-URL-KEY).
func (a *Auditor) IssuedKeys(ex *audit.Exchange) []string {
	if ex.Status/100 != 2 || !bytes.Contains(ex.RespBody, []byte(`"api_key"`)) {
		return nil
	}
	var b struct {
		APIKey string `json:"api_key"`
	}
	if json.Unmarshal(ex.RespBody, &b) != nil || b.APIKey == "" {
		return nil
	}
	return []string{b.APIKey}
}

// finished reports the session a 2xx answer shows finished, if any.
func finished(ex *audit.Exchange) (string, bool) {
	if ex.Status/100 != 2 || ex.Method == http.MethodGet && strings.HasSuffix(ex.Path, "/replay") {
		return "", false
	}
	var s struct {
		SessionID string `json:"session_id"`
		Terminal  bool   `json:"terminal"`
	}
	if json.Unmarshal(ex.RespBody, &s) != nil || !s.Terminal || s.SessionID == "" {
		return "", false
	}
	return s.SessionID, true
}

// watchCreation checks a session creation's Idempotency-Key.
func (a *Auditor) watchCreation(ex *audit.Exchange, w *agentWatch, add func(rule, detail string)) {
	key := ex.Header.Get("Idempotency-Key")
	slug := strings.TrimSuffix(strings.TrimPrefix(ex.Path, "/store/"), "/sessions")
	var body struct {
		Version string `json:"accepted_version_id"`
	}
	_ = json.Unmarshal(ex.Body, &body)
	target := slug + " " + body.Version
	// IYRA-AGENT-KEY-NOT-REUSED: a key must not be reused for a different game or version.
	if was, ok := a.keys[key]; ok && key != "" && was != target {
		add("IYRA-AGENT-KEY-NOT-REUSED", "Idempotency-Key reused for "+target+", first sent for "+was)
	} else if key != "" && !ok {
		a.keys[key] = target
	}
	intent := slug + " " + string(compact(ex.Body))
	// IYRA-AGENT-SESSION-KEY-STABLE: the same intended session keeps its key.
	if old, ok := w.uncertain[intent]; ok && old != key {
		add("IYRA-AGENT-SESSION-KEY-STABLE", "the same creation repeated under a fresh Idempotency-Key after it got no session")
	}
	if ex.Status/100 == 2 {
		delete(w.uncertain, intent)
	} else if ex.Status == http.StatusTooManyRequests || ex.Status >= 500 {
		w.uncertain[intent] = key
	}
}

// watchAction checks an action's body and its place after a rejection.
func (a *Auditor) watchAction(ex *audit.Exchange, add func(rule, detail string)) {
	id := strings.TrimSuffix(strings.TrimPrefix(ex.Path, "/sessions/"), "/actions")
	// IYRA-AGENT-READ-AFTER-REJECTION: read state and revision after an uncertain or rejected action.
	if a.sessions[id] {
		add("IYRA-AGENT-READ-AFTER-REJECTION", "another action without reading the session after a rejected or uncertain one")
	}
	var body map[string]json.RawMessage
	if json.Unmarshal(ex.Body, &body) == nil {
		// IYRA-AGENT-REVISION-REQUIRED: revision is sent with each action.
		if _, ok := body["revision"]; !ok {
			add("IYRA-AGENT-REVISION-REQUIRED", "the action body has no revision")
		}
		var inner map[string]json.RawMessage
		// IYRA-AGENT-REVISION-BESIDE-ACTION: revision belongs beside action, never inside it.
		if json.Unmarshal(body["action"], &inner) == nil {
			if _, ok := inner["revision"]; ok {
				add("IYRA-AGENT-REVISION-BESIDE-ACTION", "revision sent inside the action object")
			}
		}
	}
	switch ex.Status {
	case http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests:
		a.sessions[id] = true
	default:
		a.sessions[id] = ex.Status >= 500
	}
}

// retryHint is when a 429 allows the next write: the earliest of
// retry_at, retry_after_seconds and Retry-After, so an agent honouring any
// one of them is never blamed.
func retryHint(ex *audit.Exchange) time.Time {
	var body struct {
		Seconds *float64 `json:"retry_after_seconds"`
		At      string   `json:"retry_at"`
	}
	_ = json.Unmarshal(ex.RespBody, &body)
	var hints []time.Time
	if t, err := time.Parse(time.RFC3339, body.At); err == nil {
		hints = append(hints, t)
	}
	if body.Seconds != nil {
		hints = append(hints, ex.At.Add(time.Duration(*body.Seconds*float64(time.Second))))
	}
	if s, err := strconv.Atoi(ex.RespHeader.Get("Retry-After")); err == nil {
		hints = append(hints, ex.At.Add(time.Duration(s)*time.Second))
	}
	var first time.Time
	for _, h := range hints {
		if first.IsZero() || h.Before(first) {
			first = h
		}
	}
	return first
}

// compact is a body without insignificant white space, so that two
// spellings of one creation count as the same intent.
func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}
