package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/skeleton"
)

// ErrorBody is every error response (PP-ERROR-BODY): a machine-readable
// code, a human message, the same message as `error` (the seed's client
// prints j.error), and for quota answers the limit that was hit.
type ErrorBody struct {
	Code    string     `json:"code"`
	Message string     `json:"message"`
	Error   string     `json:"error"`
	Limit   *LimitInfo `json:"limit,omitempty"`
}

// LimitInfo describes a spent daily quota in a 429 body.
type LimitInfo struct {
	Scope   string `json:"scope"`
	Max     int    `json:"max"`
	Used    int    `json:"used"`
	ResetAt string `json:"reset_at"`
}

// writeJSON encodes v into a pooled buffer (handed back once written), so
// an answer costs its encoding, not a buffer grown from nothing.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := skeleton.GetBuffer()
	defer skeleton.PutBuffer(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"code":"internal","message":"the answer could not be encoded","error":"the answer could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// writeAction answers an action with the bytes writeJSON would write for
// it, written by appendAction into a pooled buffer with the run's case
// view cache.
func writeAction(w http.ResponseWriter, out ActionResponse, cases *caseCache) {
	buf := skeleton.GetBuffer()
	defer skeleton.PutBuffer(buf)
	buf.Write(appendAction(buf.AvailableBuffer(), out, cases))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

// Every error is {code, message, error} (PP-ERROR-BODY); error is the string the
// seed's client prints (PP-ERROR-STRING).
func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, ErrorBody{Code: code, Message: msg, Error: msg})
}

// writeQuota answers a spent quota: 429 with Retry-After and
// limit.reset_at (PP-QUOTA-429).
func writeQuota(w http.ResponseWriter, now time.Time, o *overLimit) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter(now)))
	msg := fmt.Sprintf("daily limit reached (%s: %d/%d); it resets at 00:00 JST", o.Scope, o.Used, o.Max)
	writeJSON(w, http.StatusTooManyRequests, ErrorBody{Code: o.Code, Message: msg, Error: msg,
		Limit: &LimitInfo{Scope: o.Scope, Max: o.Max, Used: o.Used, ResetAt: nextReset(now).UTC().Format(time.RFC3339)}})
}

// writeUnavailable answers a write whose quota cannot be checked
// (PP-QUOTA-503).
func writeUnavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "60")
	writeError(w, http.StatusServiceUnavailable, "quota_unavailable", "the daily write quota cannot be checked right now; retry in 60 seconds")
}

// maxBody bounds request bodies.
const maxBody = 64 << 10

// decodeBody reads a JSON object into v under the shared input policy
// (reference/skeleton): malformed JSON, invalid UTF-8, a repeated key, a
// field the endpoint does not document, a wrong field type or a body over
// 64 KiB is refused with a coded 400 that changes nothing (PP-ERR-400,
// PP-INPUT-POLICY). An empty body reads as {}.
func decodeBody(r *http.Request, v any) *skeleton.InputError {
	raw, err := skeleton.ReadBody(r, maxBody)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	return skeleton.DecodeStrict(raw, v)
}

// writeInputError answers a refused body: always 400 here, since the
// contract lists no 413 (PP-ERR-400).
func writeInputError(w http.ResponseWriter, e *skeleton.InputError) {
	writeError(w, http.StatusBadRequest, e.Code, e.Message)
}

// bearer extracts the API key of an Authorization: Bearer header.
func bearer(r *http.Request) string {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(key)
}
