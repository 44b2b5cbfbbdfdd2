package skeleton

import (
	"net/http"
	"strings"
)

// BearerToken is the credential of r's Authorization header when it uses
// the Bearer scheme. The scheme is matched case-insensitively (RFC 9110,
// 11.1: "It uses a case-insensitive token to identify the authentication
// scheme"), so an agent writing "bearer" is read as the documented
// "Bearer"; the token itself is returned exactly, spaces around it cut.
func BearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}
