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
	// ShortTurnTimeout gives up on a turn after an eighth of runtime.timeout
	// (PYYOL-PLAT-TURN-TIMEOUT).
	ShortTurnTimeout Tamper = "short-turn-timeout"
	// NoAttemptTimeout waits for an answer however long it takes
	// (PYYOL-PLAT-ATTEMPT-TIMEOUT).
	NoAttemptTimeout Tamper = "no-attempt-timeout"
	// NoBearer sends no Authorization header (PYYOL-PLAT-BEARER).
	NoBearer Tamper = "no-bearer"
	// LocalTimestamp writes the timestamp at +01:00 (PYYOL-PLAT-TIMESTAMP).
	LocalTimestamp Tamper = "local-timestamp"
	// SignsHealth signs the /health probe (PYYOL-PLAT-HEALTH).
	SignsHealth Tamper = "signs-health"
	// NoInitialize starts the match without /initialize
	// (PYYOL-PLAT-INITIALIZE).
	NoInitialize Tamper = "no-initialize"
	// ViewlessTurns sends /turn without the view (PYYOL-PLAT-TURN-BODY).
	ViewlessTurns Tamper = "viewless-turns"
	// BareEvents sends /event without its payload (PYYOL-PLAT-EVENT-BODY).
	BareEvents Tamper = "bare-events"
	// NoGameEnd ends the match without /game-end (PYYOL-PLAT-GAME-END-BODY).
	NoGameEnd Tamper = "no-game-end"
	// AcceptsPrivateEndpoints has no address guard: it stores a manifest
	// naming a forbidden address and calls it at verify (PYYOL-PLAT-SSRF).
	AcceptsPrivateEndpoints Tamper = "accepts-private-endpoints"
	// CallsLoopback is a production platform (Config.Production) that
	// still stores and calls loopback endpoints (PYYOL-PLAT-SSRF).
	CallsLoopback Tamper = "calls-loopback"
)

// tamperBody applies the body defects to a push body for route.
func (c *pushClient) tamperBody(route string, body map[string]any) {
	switch {
	case c.g.opts.Tamper == ViewlessTurns && route == "/turn":
		for k := range body {
			if k != "match_id" && k != "game" {
				delete(body, k)
			}
		}
	case c.g.opts.Tamper == BareEvents && route == "/event":
		delete(body, "payload")
	}
}

// signedWithQuery is the signature a platform tampered to sign the query
// makes: the canonical string over uri as it stands (pushsign cuts the
// query, as PYYOL-PLAT-SIGN-PATH says).
func signedWithQuery(secret, ts, nonce, method, uri string, body []byte) string {
	sum := sha256.Sum256(body)
	text := ts + "\n" + nonce + "\n" + method + "\n" + uri + "\n" + hex.EncodeToString(sum[:])
	return pushsign.Prefix + hex.EncodeToString(pushsign.HMACSHA256([]byte(secret), []byte(text)))
}
