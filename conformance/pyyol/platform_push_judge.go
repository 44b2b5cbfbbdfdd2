package pyyol

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/skeleton"
)

// The judges of pyyol-platform: each looks at every request the platform
// made to the kit's endpoint and names the rule the first bad one breaks.

// skewWindow is the SDK's ±300 s (PYYOL-SIGN-SKEW-WINDOW): a timestamp
// outside it is refused by every conforming agent.
const skewWindow = 300 * time.Second

// signedRequests are the requests the platform must sign: all but the
// /health probe and a request to the kit's redirect target (the redirect
// judge's own).
func (s *platSession) signedRequests() []*seen {
	var out []*seen
	for _, r := range s.ep.requests() {
		if r.path != platformDir+"/health" && !strings.HasPrefix(r.path, redirectedDir) {
			out = append(out, r)
		}
	}
	return out
}

// signatureOver reports whether r's signature header is the HMAC of its
// canonical string over path. The string is built here, not with
// pushsign (which cuts any query, as the rule says), so a signature over
// the path with its query is told apart.
func (s *platSession) signatureOver(r *seen, path string) bool {
	ts, nonce := r.header.Get(pushsign.TimestampHeader), r.header.Get(pushsign.NonceHeader)
	sum := sha256.Sum256(r.body)
	text := ts + "\n" + nonce + "\n" + strings.ToUpper(r.method) + "\n" + path + "\n" + hex.EncodeToString(sum[:])
	want := "v1=" + hex.EncodeToString(pushsign.HMACSHA256([]byte(s.secret), []byte(text)))
	return hmac.Equal([]byte(want), []byte(r.header.Get(pushsign.SignatureHeader)))
}

// judgeSigned: every request but /health verifies over its bare path.
func (s *platSession) judgeSigned() error {
	for _, r := range s.signedRequests() {
		if s.signatureOver(r, r.path) {
			continue
		}
		if other, ok := s.otherPathSigned(r); ok {
			return verdict.Failf("PYYOL-PLAT-SIGN-PATH", "a signature over the path "+r.path, "a signature over "+other,
				"the platform's %s", r.describe())
		}
		return verdict.Failf("PYYOL-PLAT-SIGNED", "v1=hex(hmacSHA256(endpoint secret, timestamp\\nnonce\\nMETHOD\\npath\\nhex(sha256(body))))",
			"a signature that does not verify", "the platform's %s", r.describe())
	}
	return nil
}

// otherPathSigned finds the rendering of r's target other than its bare
// path that r's signature binds, if it is one a platform plausibly signs:
// the path with its query, with a trailing slash or without one, the
// whole URL, or the path of another route of the endpoint
// (PYYOL-PLAT-SIGN-PATH: "`path` is the request path (no query string)").
func (s *platSession) otherPathSigned(r *seen) (string, bool) {
	others := []string{r.path + "/", strings.TrimSuffix(r.path, "/"), "http://" + r.host + r.path, "https://" + r.host + r.path, r.host + r.path}
	if r.query != "" {
		others = append([]string{r.path + "?" + r.query}, others...)
	}
	// Another route's path: endpoint.url's for every call, or a sibling's
	// (one path signed for all, or a path built apart from the URL called).
	for _, route := range slices.Sorted(maps.Keys(siblingRoutes)) {
		others = append(others, platformDir+route)
	}
	// The route without the agent's mount: a platform that signs the
	// sibling's name ("/turn") where the request goes to the endpoint's
	// mount ("/kit-agent/turn"); the SDK verifies the path it was asked.
	if route, ok := strings.CutPrefix(r.path, platformDir); ok && route != "" {
		others = append(others, route)
	}
	for _, other := range others {
		if other != r.path && s.signatureOver(r, other) {
			return other, true
		}
	}
	return "", false
}

// judgeSignPath: no signature binds anything but the bare path: not the
// query string, not the whole URL, not the path with a slash more or
// less. A signature that binds none of them is PYYOL-PLAT-SIGNED's.
func (s *platSession) judgeSignPath() error {
	for _, r := range s.signedRequests() {
		if s.signatureOver(r, r.path) {
			continue
		}
		if other, ok := s.otherPathSigned(r); ok {
			return verdict.Failf("PYYOL-PLAT-SIGN-PATH", "a signature over the path "+r.path+" (no query string)",
				"a signature over "+other, "the platform's %s", r.describe())
		}
	}
	return nil
}

// judgeHeaders: the three X-Arena headers on every signed request.
func (s *platSession) judgeHeaders() error {
	for _, r := range s.signedRequests() {
		for _, h := range []string{pushsign.TimestampHeader, pushsign.NonceHeader, pushsign.SignatureHeader} {
			if r.header.Get(h) == "" {
				return verdict.Failf("PYYOL-PLAT-HEADERS", h, "no "+h, "the platform's %s", r.describe())
			}
		}
		sig, ok := strings.CutPrefix(r.header.Get(pushsign.SignatureHeader), "v1=")
		if _, err := hex.DecodeString(sig); !ok || err != nil || len(sig) != 64 {
			return verdict.Failf("PYYOL-PLAT-HEADERS", "X-Arena-Signature: v1=<64 hex digits>", "another form",
				"the platform's %s", r.describe())
		}
	}
	return nil
}

// judgeBearer: Authorization: Bearer <endpoint secret> on every signed
// request (the value is never printed).
func (s *platSession) judgeBearer() error {
	for _, r := range s.signedRequests() {
		got := r.header.Get("Authorization")
		// The auth-scheme is case-insensitive (RFC 9110, 11.1): "bearer"
		// names the same scheme; the credential itself is exact.
		if cred, ok := skeleton.Bearer(got); ok && cred == s.secret {
			continue
		}
		observed := "no Authorization header"
		if got != "" {
			observed = "another Authorization value"
		}
		return verdict.Failf("PYYOL-PLAT-BEARER", "Authorization: Bearer <the endpoint secret>", observed, "the platform's %s", r.describe())
	}
	return nil
}

// judgeTimestamp: RFC3339 UTC, and inside the skew window of the moment
// the kit received the request.
func (s *platSession) judgeTimestamp() error {
	for _, r := range s.signedRequests() {
		ts := r.header.Get(pushsign.TimestampHeader)
		t, err := time.Parse(time.RFC3339, ts)
		_, offset := t.Zone()
		if err != nil || offset != 0 {
			return verdict.Failf("PYYOL-PLAT-TIMESTAMP", "an RFC3339 UTC time such as 2026-07-06T12:00:00Z", ts, "the platform's %s", r.describe())
		}
		if d := r.at.Sub(t); d > skewWindow || d < -skewWindow {
			return verdict.Failf("PYYOL-PLAT-TIMESTAMP", "within ±300s of the time the request came", ts,
				"the platform's %s came at %s", r.describe(), r.at.UTC().Format(time.RFC3339))
		}
	}
	return nil
}

// judgeNonce: every signed request has a nonce of its own.
func (s *platSession) judgeNonce() error {
	first := map[string]*seen{}
	for _, r := range s.signedRequests() {
		n := r.header.Get(pushsign.NonceHeader)
		if n == "" {
			return verdict.Failf("PYYOL-PLAT-NONCE", "a per-request nonce in X-Arena-Request-Id", "none", "the platform's %s", r.describe())
		}
		if prev, ok := first[n]; ok {
			return verdict.Failf("PYYOL-PLAT-NONCE", "a nonce never used before", "the nonce of the earlier "+prev.describe(),
				"the platform's %s", r.describe())
		}
		first[n] = r
	}
	return nil
}

// judgeProtocol: "protocol": "1.0" in every body (the POSTs).
func (s *platSession) judgeProtocol() error {
	for _, r := range s.signedRequests() {
		if r.method != http.MethodPost {
			continue
		}
		body := decodeObject(r.body)
		if body == nil || body["protocol"] != "1.0" {
			got := any("no protocol field")
			if body != nil && body["protocol"] != nil {
				got = body["protocol"]
			}
			return verdict.Failf("PYYOL-PUSH-PROTOCOL-FIELD", `"protocol": "1.0"`, got, "the body of the platform's %s", r.describe())
		}
	}
	return nil
}

// judgeHealth: the liveness probe is a GET of /health, unsigned
// ("**Not signed.**").
func (s *platSession) judgeHealth() error {
	probed := false
	for _, r := range s.ep.requests() {
		if r.path != platformDir+"/health" {
			continue
		}
		probed = true
		if r.method != http.MethodGet {
			return verdict.Failf("PYYOL-PLAT-HEALTH", "GET /health", r.method+" /health", "the platform's liveness probe")
		}
		if r.header.Get(pushsign.SignatureHeader) != "" {
			return verdict.Failf("PYYOL-PLAT-HEALTH", "an unsigned probe", "an X-Arena-Signature header", "the platform's GET /health")
		}
	}
	if !probed {
		return verdict.Skipf("unchecked: the platform never probed %s/health", platformDir)
	}
	return nil
}

// siblingRoutes are the paths the platform may call: endpoint.url and its
// siblings in its directory.
var siblingRoutes = map[string]bool{"/turn": true, "/health": true, "/handshake": true, "/initialize": true, "/event": true, "/game-end": true}

// judgeSiblings: every route in dir(endpoint.url), the turn at endpoint.url.
func (s *platSession) judgeSiblings() error {
	for _, r := range s.ep.requests() {
		if strings.HasPrefix(r.path, redirectedDir) {
			continue
		}
		route, ok := strings.CutPrefix(r.path, platformDir)
		if !ok || !siblingRoutes[route] {
			return verdict.Failf("PYYOL-PLAT-SIBLINGS", "a route in "+platformDir+" (endpoint.url "+s.endpointURL+")", r.path,
				"the platform's %s", r.describe())
		}
	}
	return nil
}

// routeRequests are the requests to one sibling route, in order.
func (s *platSession) routeRequests(route string) []*seen {
	var out []*seen
	for _, r := range s.ep.requests() {
		if r.path == platformDir+route {
			out = append(out, r)
		}
	}
	return out
}

// judgeInitialize: an /initialize before the first turn, each one naming the seat
// and the player count (any of the spellings the docs leave open).
func (s *platSession) judgeInitialize() error {
	inits := s.routeRequests("/initialize")
	if len(inits) == 0 {
		return verdict.Failf("PYYOL-PLAT-INITIALIZE", "an /initialize as the match starts", "none", "the platform's pushes")
	}
	if turns := s.routeRequests("/turn"); len(turns) > 0 && turns[0].at.Before(inits[0].at) {
		return verdict.Failf("PYYOL-PLAT-INITIALIZE", "/initialize before the first /turn", "a /turn first", "the platform's pushes")
	}
	for _, r := range inits {
		if err := s.judgeInitializeBody(r.body); err != nil {
			return err
		}
	}
	return nil
}

// judgeInitializeBody judges one /initialize: every delivery, retries
// included, names the seat and the count, since an agent acts on
// whichever one it acknowledged (a retry that lost its fields reaches an
// SDK agent as a match without a seat).
func (s *platSession) judgeInitializeBody(raw []byte) error {
	body := decodeObject(raw)
	seat := intOr(body["seat"], -1)
	if body == nil || seat < 0 {
		return verdict.Failf("PYYOL-PLAT-INITIALIZE", "a seat number", "none", "the platform's /initialize body")
	}
	// The seat is the one the match's views are for: a seat numbered
	// another way than the views' reaches an SDK agent as another seat.
	game, _ := body["game"].(string)
	for _, t := range s.routeRequests("/turn") {
		v := readTurnView(t.body)
		if v.seat >= 0 && v.seat != seat {
			return verdict.Failf("PYYOL-PLAT-INITIALIZE", fmt.Sprintf("seat %d, the seat of the match's /turn views", v.seat),
				fmt.Sprintf("seat %d", seat), "the platform's /initialize body")
		}
		if game == "" {
			game = v.game
		}
	}
	for _, k := range []string{"players", "player_count", "playerCount", "num_players"} {
		n := intOr(body[k], -1)
		if listed := list(body[k]); len(listed) > 0 {
			n = len(listed)
		}
		if n <= 0 {
			continue
		}
		// games.md: Goofspiel "**Players:** 2"; the count is the table's,
		// the agent's seat among them (the game is /initialize's, or the
		// turns' when it names none).
		if game == "goofspiel" && n != goofspielPlayers {
			return verdict.Failf("PYYOL-PLAT-INITIALIZE", fmt.Sprintf("%s %d, Goofspiel's player count", k, goofspielPlayers),
				fmt.Sprintf("%s %d", k, n), "the platform's /initialize body")
		}
		return nil
	}
	return verdict.Failf("PYYOL-PLAT-INITIALIZE", "the player count (players)", "none", "the platform's /initialize body")
}

// goofspielPlayers is Goofspiel's table size (games.md: "**Players:** 2").
const goofspielPlayers = 2

// kitGames are the games the kit's manifest and handshake name, the ids
// an SDK agent registers its turn handlers under.
var kitGames = []string{"goofspiel"}

// judgeTurnBody: every /turn names the game and carries a view.
func (s *platSession) judgeTurnBody() error {
	turns := s.routeRequests("/turn")
	if len(turns) == 0 {
		return verdict.Skipf("unchecked: the platform pushed no turn")
	}
	for _, r := range turns {
		v := readTurnView(r.body)
		if v.game == "" || !v.ok || v.round < 0 {
			return verdict.Failf("PYYOL-PLAT-TURN-BODY", "a game field and a view with round and legal_actions", fmt.Sprintf("game %q, view found %v", v.game, v.ok),
				"the platform's /turn body")
		}
		// The game is named by the id the manifest lists ("games":
		// ["goofspiel"]), which the SDK dispatches its turn handlers on:
		// another spelling reaches an SDK agent as a game it has no
		// handler for.
		if !slices.Contains(kitGames, v.game) {
			return verdict.Failf("PYYOL-PLAT-TURN-BODY", fmt.Sprintf("game %q, as the kit's manifest lists it", kitGames[0]),
				fmt.Sprintf("game %q", v.game), "the platform's /turn body")
		}
		if err := judgeViewRounds(v); err != nil {
			return err
		}
	}
	return nil
}

// judgeEventBody: every /event is {seq, type, payload}; no seq twice
// (a retried delivery carries its seq again, so a repeat counts only for a
// different type).
func (s *platSession) judgeEventBody() error {
	events := s.routeRequests("/event")
	if len(events) == 0 {
		return verdict.Failf("PYYOL-PLAT-EVENT-BODY", "/event notifications between turns", "none", "the platform's pushes")
	}
	types := map[int]string{}
	for _, r := range events {
		seq, typ, payload, ok := pushEventFields(r.body)
		if !ok || seq < 0 || typ == "" || !payload {
			return verdict.Failf("PYYOL-PLAT-EVENT-BODY", "{seq, type, payload}", string(r.body), "an /event body")
		}
		// The docs name the field: "{seq, type, payload}", and the SDK's
		// EventNotification reads type alone, so the socket's "kind"
		// reaches an SDK agent as an event of no type.
		if named, _ := decodeObject(r.body)["type"].(string); named == "" {
			return verdict.Failf("PYYOL-PLAT-EVENT-BODY", "the event's type under \"type\"", "its type under \"kind\" only", "an /event body")
		}
		if prev, dup := types[seq]; dup && prev != typ {
			return verdict.Failf("PYYOL-PLAT-EVENT-BODY", "one event per seq", fmt.Sprintf("seq %d for %s and %s", seq, prev, typ), "the /event bodies")
		}
		types[seq] = typ
	}
	return nil
}

// judgeGameEnd: the match ends with a /game-end carrying the result.
func (s *platSession) judgeGameEnd() error {
	ends := s.routeRequests("/game-end")
	if len(ends) == 0 {
		return verdict.Failf("PYYOL-PLAT-GAME-END-BODY", "a /game-end when the match ends", "none within --match-wait", "the platform's pushes")
	}
	// "/game-end delivers the final `result`": the field the docs name and
	// the SDK's GameEndNotification reads; a result spread over the top
	// level reaches an SDK agent as none.
	body := decodeObject(ends[0].body)
	if body == nil || body["result"] == nil {
		return verdict.Failf("PYYOL-PLAT-GAME-END-BODY", "the final result under \"result\"", "a body without one", "the platform's /game-end")
	}
	if res, ok := body["result"].(map[string]any); ok {
		match, _ := body["match_id"].(string)
		if err := judgeResultCoversTurns(res, s.turnRounds(match)); err != nil {
			return err
		}
		return judgeFinalResult(res)
	}
	return nil
}

// judgeFinalResult: a Goofspiel result is the final one, its parts
// recomputed from each other (PYYOL-PLAT-GAME-END-BODY, "the final
// result"): its scores are those after the last round of its history
// (games.md: history[].scores "after that round"), and its winner is the
// seat with the higher total, -1 on equal totals (PYYOL-GOOF-WINNER).
// A part the result does not carry is not judged.
func judgeFinalResult(res map[string]any) error {
	scores := ints(res["scores"])
	if len(scores) != goofspielPlayers {
		return nil
	}
	if h := list(res["history"]); len(h) > 0 {
		last, _ := h[len(h)-1].(map[string]any)
		if after := ints(last["scores"]); len(after) == goofspielPlayers && !slices.Equal(after, scores) {
			return verdict.Failf("PYYOL-PLAT-GAME-END-BODY", fmt.Sprintf("the final scores %v, those after round %v", after, last["round"]),
				fmt.Sprintf("scores %v", scores), "the platform's /game-end result")
		}
	}
	got := intOr(res["winner"], math.MinInt)
	if got == math.MinInt {
		return nil // a winner named another way than a seat number is not recomputed here
	}
	want := -1
	switch {
	case scores[0] > scores[1]:
		want = 0
	case scores[1] > scores[0]:
		want = 1
	}
	if got != want {
		return verdict.Failf("PYYOL-PLAT-GAME-END-BODY", fmt.Sprintf("winner %d, the seat with the higher total of %v (-1 on equal totals)", want, scores),
			fmt.Sprintf("winner %v", res["winner"]), "the platform's /game-end result")
	}
	return nil
}

// judgeOneWay: the next /turn came while the kit held an /event.
func (s *platSession) judgeOneWay() error {
	for _, r := range s.routeRequests("/event") {
		if !r.held {
			continue
		}
		if !r.nextCame {
			return verdict.Failf("PYYOL-PLAT-ONE-WAY", "the next /turn while the /event is unanswered",
				fmt.Sprintf("no /turn in the %v the kit held the /event", eventHold), "the match after round %d", holdRound())
		}
		return nil
	}
	return verdict.Skipf("unchecked: no /event came after round %d's turn", holdRound())
}

// holdRound is the round after whose turn the kit holds an /event.
func holdRound() int {
	for r, plan := range turnPlan {
		if plan == turnHoldEvent {
			return r
		}
	}
	return -1
}

// judgeHandshakePlatform: the reference's handshake body names the
// platform (PYYOL-PLAT-REF-CLIENT; a warning only).
func (s *platSession) judgeHandshakePlatform() error {
	hs := s.routeRequests("/handshake")
	if len(hs) == 0 {
		return verdict.Skipf("unchecked: the platform sent no /handshake")
	}
	if body := decodeObject(hs[0].body); body == nil || body["platform"] == nil {
		return verdict.Failf("PYYOL-PLAT-REF-CLIENT", `{"platform": ..., "protocol": "1.0"}`, string(hs[0].body), "the handshake body")
	}
	return nil
}

// judgePracticeAfterVerify: the match came without the kit asking
// (PYYOL-PLAT-REF-PRACTICE; a warning only).
func (s *platSession) judgePracticeAfterVerify() error {
	if s.asked {
		return verdict.Failf("PYYOL-PLAT-REF-PRACTICE", "a practice match pushed after verify", "a match only after the practice route was asked", "the platform")
	}
	return nil
}
