package audit

import (
	"encoding/json"
	"net/url"
	"strings"
)

// shownBody bounds the request body a finding keeps.
const shownBody = 2 << 10

// redactedMark replaces every secret a finding would otherwise show.
const redactedMark = "[redacted]"

// redact fills in what a finding shows of the request that broke the rule
// (its answer's status, its query and body), with the agent's key (in the
// request line and detail too) and
// every credential-named value (api_key, agent_secret, access_token,
// password, ...) replaced, so no report of the audit ever carries one.
func (e *Exchange) redact(f Finding) Finding {
	if f.Status == 0 { // a watcher may name the status itself (a tool call's)
		f.Status = e.Status
	}
	if e.Key != "" { // a path may carry the key: the request line is method and path
		f.Request = strings.ReplaceAll(f.Request, e.Key, redactedMark)
		f.Detail = strings.ReplaceAll(f.Detail, e.Key, redactedMark)
	}
	f.Query = redactQuery(e.RawQuery, e.Key)
	f.Body = redactBody(e.Body, e.Key)
	return f
}

// redactQuery masks credential-named parameters and the key in a query.
func redactQuery(raw, key string) string {
	if raw == "" {
		return ""
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return redactedMark
	}
	for name, vs := range q {
		for i, v := range vs {
			if secretName(name) || (key != "" && strings.Contains(v, key)) {
				vs[i] = redactedMark
			}
		}
	}
	return q.Encode()
}

// redactBody masks credential-named JSON fields and the key in a body,
// then cuts it to shownBody bytes.
func redactBody(body []byte, key string) string {
	var v any
	text := string(body)
	if json.Unmarshal(body, &v) == nil {
		if out, err := json.Marshal(maskFields(v)); err == nil {
			text = string(out)
		}
	}
	if key != "" {
		text = strings.ReplaceAll(text, key, redactedMark)
	}
	if len(text) > shownBody {
		text = text[:shownBody] + "…"
	}
	return text
}

func maskFields(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if _, isText := x.(string); isText && secretName(k) {
				t[k] = redactedMark
				continue
			}
			t[k] = maskFields(x)
		}
	case []any:
		for i, x := range t {
			t[i] = maskFields(x)
		}
	}
	return v
}

// secretName reports whether a field or parameter name names a
// credential: api_key, apiKey, agent_secret, access_token, password (but
// not idempotency_key, an identifier).
func secretName(name string) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
	for _, tail := range []string{"apikey", "secret", "token", "password"} {
		if strings.HasSuffix(n, tail) {
			return true
		}
	}
	return n == "key"
}
