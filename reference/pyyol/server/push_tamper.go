package server

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/agentgames/conformance/reference/pushsign"
)

// The push client's defects, for the pyyol-platform tamper tests: each a
// broken platform the runner must catch live, naming the rule.
const (
	// SignsQuery sends its calls with a query and signs the path with it
	// (PYYOL-PLAT-SIGN-PATH).
	SignsQuery Tamper = "signs-query"
	// SkipsNonce sends no X-Arena-Request-Id (PYYOL-PLAT-NONCE).
	SkipsNonce Tamper = "skips-nonce"
	// ReusesNonce sends one nonce on every call (PYYOL-PLAT-NONCE).
	ReusesNonce Tamper = "reuses-nonce"
	// OmitsProtocol leaves "protocol" out of its bodies
	// (PYYOL-PUSH-PROTOCOL-FIELD).
	OmitsProtocol Tamper = "omits-protocol"
	// FollowsRedirects follows a 3xx from the agent (PYYOL-PLAT-NO-REDIRECT).
	FollowsRedirects Tamper = "follows-redirects"
	// ReadsUnbounded reads an answer body whole, however long
	// (PYYOL-PLAT-BOUNDED-BODY).
	ReadsUnbounded Tamper = "reads-unbounded"
	// StallsOnEvents awaits each /event before the next turn
	// (PYYOL-PLAT-ONE-WAY).
	StallsOnEvents Tamper = "stalls-on-events"
)

// More push-client defects.
const (
	// NeverPushes verifies endpoints but pushes them no match.
	NeverPushes Tamper = "never-pushes"
	// SiblingsUnderTurn calls the siblings under endpoint.url instead of
	// beside it (PYYOL-PLAT-SIBLINGS).
	SiblingsUnderTurn Tamper = "siblings-under-turn"
	// IgnoresRuntimeTimeout waits the default attempt timeout for a turn
	// instead of runtime.timeout (PYYOL-PLAT-TURN-TIMEOUT).
	IgnoresRuntimeTimeout Tamper = "ignores-runtime-timeout"
)

// signedWithQuery is the signature a platform tampered to sign the query
// makes: the canonical string over uri as it stands (pushsign cuts the
// query, as PYYOL-PLAT-SIGN-PATH says).
func signedWithQuery(secret, ts, nonce, method, uri string, body []byte) string {
	sum := sha256.Sum256(body)
	text := ts + "\n" + nonce + "\n" + method + "\n" + uri + "\n" + hex.EncodeToString(sum[:])
	return pushsign.Prefix + hex.EncodeToString(pushsign.HMACSHA256([]byte(secret), []byte(text)))
}
