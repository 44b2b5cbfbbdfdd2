package skeleton

import (
	"net/http"
	"testing"
)

// TestBearerTokenReadsTheSchemeInAnyCase: "Bearer", "bearer" and
// "BEARER" name one scheme; another scheme, no token or no header is no
// bearer token.
func TestBearerTokenReadsTheSchemeInAnyCase(t *testing.T) {
	cases := map[string]struct {
		token string
		ok    bool
	}{
		"Bearer k_1":     {"k_1", true},
		"bearer k_1":     {"k_1", true},
		"BEARER  k_1 ":   {"k_1", true},
		"Basic k_1":      {"", false},
		"Bearer":         {"", false},
		"":               {"", false},
		"Bearerk_1":      {"", false},
		"Token Bearer x": {"", false},
	}
	for header, want := range cases {
		r, _ := http.NewRequest(http.MethodGet, "http://h/", nil)
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		if got, ok := BearerToken(r); got != want.token || ok != want.ok {
			t.Errorf("%q: (%q, %v), want (%q, %v)", header, got, ok, want.token, want.ok)
		}
	}
}
