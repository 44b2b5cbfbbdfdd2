package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/faults"
)

// rateLimitSeconds is how long an injected rate limit asks an agent to
// wait: short, so an agent that honours it loses little time.
const rateLimitSeconds = 1

// AnswerLost names the fault that applies an action and loses its answer;
// the action handler brings it about.
const AnswerLost = "answer_lost"

// ChallengeExpired names the fault that issues a challenge already past
// its expires_at; the acceptance handler brings it about.
const ChallengeExpired = "challenge_expired"

// Faults are the failures the contract documents, which reference/faults
// injects on demand: a 429 carrying both retry hints (IYRA-RATE-LIMIT), a
// 5xx, after which the agent must read the authoritative state before
// acting again (IYRA-RECOVERY-READ), and an expired challenge: the
// contract tells an agent to "use challenge, difficulty and expires_at
// returned by acceptance", so the fault acts through the server, which
// issues a challenge whose expires_at is the moment of acceptance; the
// proof then meets the reference's 422 challenge_expired
// (IYRA-PROOF-EXPIRY) and the agent must accept again. And a stale
// revision as an agent meets one: its action is applied but the answer
// lost (502, one of the "5xx" the recovery rule lists), so the revision it
// sent is no longer the latest, and replaying the write blindly meets the
// reference's 409 stale_revision (IYRA-REVISION-STALE); reading the state
// shows the new revision and the applied action.
func Faults() []faults.Fault {
	return []faults.Fault{
		{
			Name: AnswerLost, Rule: "IYRA-REVISION-STALE", Status: http.StatusBadGateway, Through: true,
			Doc:     "Read authoritative state and revision after an uncertain or rejected action (applied, answer lost: a replay meets 409 stale_revision)",
			Applies: isAction,
		},
		{
			Name: ChallengeExpired, Rule: "IYRA-PROOF-EXPIRY", Status: http.StatusUnprocessableEntity, Through: true,
			Doc: "use challenge, difficulty and expires_at returned by acceptance (a challenge that expires on arrival)",
			Applies: func(method, path string, _ []byte) bool {
				return method == http.MethodPost && path == "/tasks/play/accept"
			},
		},
		{
			Name: "rate_limited", Rule: "IYRA-RATE-LIMIT", Status: http.StatusTooManyRequests,
			Doc:     "Respect retry_after_seconds or retry_at.",
			Applies: isWrite,
			Answer: func(w http.ResponseWriter, now time.Time) {
				secs := rateLimitSeconds
				write(w, reply{status: http.StatusTooManyRequests, body: apiError{
					Code: "rate_limited", Message: "too many requests; retry after retry_after_seconds",
					RetryAfterSeconds: &secs, RetryAt: retryAt(now).Format(time.RFC3339),
				}, header: map[string]string{"Retry-After": strconv.Itoa(secs)}})
			},
		},
		{
			Name: "unavailable", Rule: "IYRA-RECOVERY-READ", Status: http.StatusServiceUnavailable,
			Doc:     "Read authoritative state and revision after an uncertain or rejected action (recovery on 5xx).",
			Applies: isAction,
			Answer: func(w http.ResponseWriter, _ time.Time) {
				write(w, fail(http.StatusServiceUnavailable, "unavailable", "the action could not be processed; read the session state before acting again"))
			},
		},
	}
}

// isWrite reports whether a request creates a session or acts in one.
func isWrite(method, path string, _ []byte) bool {
	return isAction(method, path, nil) ||
		(method == http.MethodPost && strings.HasPrefix(path, "/store/") && strings.HasSuffix(path, "/sessions"))
}

// isAction reports whether a request posts an action.
func isAction(method, path string, _ []byte) bool {
	return method == http.MethodPost && strings.HasPrefix(path, "/sessions/") && strings.HasSuffix(path, "/actions")
}

// retryAt is the retry_at of a 429 answered at now: rateLimitSeconds on,
// rounded up to the whole second RFC 3339 writes, so the two hints agree
// on a wait of at least retry_after_seconds. Rounded down, a 429 answered
// at .95 s told a retry at most 50 ms away, and an agent that wrote again
// at once was judged in time whenever its machine was slow
// (IYRA-AGENT-RETRY-AFTER).
func retryAt(now time.Time) time.Time {
	t := now.UTC().Add(rateLimitSeconds * time.Second)
	if up := t.Truncate(time.Second); up.Before(t) {
		return up.Add(time.Second)
	}
	return t
}
