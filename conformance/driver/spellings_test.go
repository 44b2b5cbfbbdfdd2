package driver_test

import (
	"encoding/base64"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/driver"
)

// TestEverySpellingOfAKeyIsRedacted: a key learned decoded is hidden however
// a target or a URL spells it.
func TestEverySpellingOfAKeyIsRedacted(t *testing.T) {
	const key = "aa/live+0123 é€abcdef"
	s := &driver.Secrets{}
	s.Learn([]byte(`{"api_key":"aa\/live+0123 \u00e9\u20ACabcdef"}`))
	spellings := map[string]string{
		"decoded":               key,
		"slash escaped":         `aa\/live+0123 é€abcdef`,
		"every char \\u, lower": `\u0061\u0061\u002f\u006c\u0069\u0076\u0065\u002b\u0030\u0031\u0032\u0033\u0020\u00e9\u20ac\u0061\u0062\u0063\u0064\u0065\u0066`,
		"some chars \\u, upper": `a\u0061/live\u002B0123 \u00E9\u20ACabcdef`,
		"query escaped":         url.QueryEscape(key),
		"path escaped":          url.PathEscape(key),
		"lower-case percent":    "aa%2flive%2b0123+%c3%a9%e2%82%acabcdef",
		"basic, std":            base64.StdEncoding.EncodeToString([]byte("agent:" + key)),
		"basic, url":            base64.URLEncoding.EncodeToString([]byte("u:" + key + "x")),
		"basic, two-byte user":  base64.StdEncoding.EncodeToString([]byte("ab:" + key)),
	}
	for name, text := range spellings {
		got := s.Redact("before " + text + " after")
		assert.Contains(t, got, driver.Redacted, name)
		assert.NotContains(t, got, "abcdef", name)
		assert.NotContains(t, got, "0123", name)
	}
	assert.Equal(t, `{"x":"aa\/live"}`, s.Redact(`{"x":"aa\/live"}`), "text that is not the key is left alone")
}
