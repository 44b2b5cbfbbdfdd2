package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"
)

// dashboardTTL is how long a dashboard JWT the reference mints stays
// valid: "a short-lived dashboard JWT, auto-refreshed" (PYYOL-REF-DASHBOARD-JWT).
const dashboardTTL = 15 * time.Minute

// jwtClaims are the claims of the reference's dashboard JWT: the agent it
// stands for, its user scope and its expiry.
type jwtClaims struct {
	Sub   string `json:"sub"`
	Scope string `json:"scope"`
	Exp   int64  `json:"exp"`
}

var jwtHeader = b64(`{"alg":"HS256","typ":"JWT"}`)

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// dashboardJWT mints a dashboard JWT (HS256 over the gateway's own key)
// for an agent, which registers a socket as that agent
// (PYYOL-WS-DASHBOARD-JWT) and authorizes its owner calls
// (PYYOL-REF-OWNER-AUTH).
func (g *Gateway) dashboardJWT(agentID string) string {
	claims, _ := json.Marshal(jwtClaims{Sub: agentID, Scope: "user", Exp: g.opts.Clock()().Add(dashboardTTL).Unix()})
	body := jwtHeader + "." + b64(string(claims))
	return body + "." + g.jwtSignature(body)
}

func (g *Gateway) jwtSignature(body string) string {
	mac := hmac.New(sha256.New, g.derive("dashboard-jwt", 0, 32))
	mac.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// jwtAgent returns the agent a valid, unexpired dashboard JWT names.
func (g *Gateway) jwtAgent(token string) (string, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[0] != jwtHeader || g.opts.Tamper == RejectsDashboardJWT {
		return "", false
	}
	if !hmac.Equal([]byte(g.jwtSignature(parts[0]+"."+parts[1])), []byte(parts[2])) {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var c jwtClaims
	if err != nil || json.Unmarshal(raw, &c) != nil || c.Scope != "user" || c.Sub == "" {
		return "", false
	}
	return c.Sub, g.opts.Clock()().Unix() < c.Exp
}
