package phantompress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
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

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, `{"code":"internal","message":%q,"error":%q}`, err.Error(), err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
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

// decodeBody reads a JSON object into v. Malformed JSON, a non-object or a
// wrong field type is an error the caller answers with 400 (PP-ERR-400).
func decodeBody(r *http.Request, v any) error {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("reading body: %w", err)
	}
	if len(raw) > maxBody {
		return errors.New("body too large")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %q must be %s", te.Field, te.Type)
		}
		return fmt.Errorf("body is not a JSON object: %v", err)
	}
	if dec.More() {
		return errors.New("body holds more than one JSON value")
	}
	return nil
}

// bearer extracts the API key of an Authorization: Bearer header.
func bearer(r *http.Request) string {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(key)
}
