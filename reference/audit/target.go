package audit

import (
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/agentgames/conformance/reference/skeleton"
)

// RequestKey is the key a request carries: its Bearer key, else the value
// of a credential-named query parameter (a key sent in the URL, which a
// rule for agents forbids, is still the agent's key). "" without one.
func RequestKey(r *http.Request) string {
	if key, _ := skeleton.BearerToken(r); key != "" {
		return key
	}
	return queryKey(r.URL.Query())
}

// harmless is a query value that cannot be a key: a short number (a page,
// a round) or a boolean.
var harmless = regexp.MustCompile(`^(?:\d{1,6}|true|false)$`)

// Target names a request for a log line without any secret: its path with
// key (the request's own, RequestKey) masked, then its query, every value
// masked but a harmless one, since a value under any name may be a key.
// Parameter names stay, in name order, so the line still says which
// request it was.
func Target(r *http.Request, key string) string {
	path := r.URL.Path
	if key != "" {
		path = strings.ReplaceAll(path, key, redactedMark)
	}
	if r.URL.RawQuery == "" {
		return path
	}
	return path + "?" + maskedQuery(r.URL.Query())
}

// maskedQuery spells a query unescaped, each value masked unless harmless.
func maskedQuery(q url.Values) string {
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	var parts []string
	for _, name := range names {
		for _, v := range q[name] {
			if !harmless.MatchString(v) || secretName(name) {
				v = redactedMark
			}
			parts = append(parts, url.QueryEscape(name)+"="+v)
		}
	}
	return strings.Join(parts, "&")
}
