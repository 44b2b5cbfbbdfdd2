package skeleton

import (
	"net/http"
	"strings"
)

// BearerToken is the credential of r's Authorization header when it uses
// the Bearer scheme (Bearer).
func BearerToken(r *http.Request) (string, bool) { return Bearer(r.Header.Get("Authorization")) }

// Bearer is the credential of an Authorization header value that uses the
// Bearer scheme. The scheme is matched case-insensitively (RFC 9110, 11.1:
// "It uses a case-insensitive token to identify the authentication
// scheme"), so "bearer" is read as the documented "Bearer"; the token
// itself is returned exactly, spaces around it cut. The reference servers
// read keys with it, and the runner judges a platform's header with it.
func Bearer(authorization string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}
