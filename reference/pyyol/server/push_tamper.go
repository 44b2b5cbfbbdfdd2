package server

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
