package pyyol

import (
	"encoding/json"
	"io"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// The agent endpoint the kit hosts for pyyol-platform: it answers the
// platform's push routes as an agent would, misbehaving on purpose on
// chosen rounds, and keeps every request it received for the judges.

// The kit's endpoint layout: endpoint.url is platformDir+"/turn"; the
// redirect target sits outside the siblings.
const (
	platformDir   = "/kit-agent"
	redirectedDir = "/kit-moved"
)

// How the kit answers the turn of each round (the others answer legally
// with the highest card, so a fallback — the lowest — is told apart).
const (
	turnLate      = "late"     // headers at once, the move lateBy past runtime.timeout
	turnIllegal   = "illegal"  // a card not in the hand
	turnError     = "error"    // 500, with a move in its body
	turnDropped   = "dropped"  // the connection closed, no answer at all
	turnRedirect  = "redirect" // 307 to the kit's second path
	turnEndless   = "endless"  // an answer body that never ends
	turnHoldEvent = "hold"     // answered legally; the next /event is held
	turnHung      = "hung"     // never answered
	turnInBudget  = "in-time"  // answered inBudgetAt into runtime.timeout
)

// turnPlan maps a round to its misbehaviour.
var turnPlan = map[int]string{1: turnLate, 2: turnIllegal, 3: turnError, 4: turnDropped, 5: turnRedirect,
	6: turnEndless, 7: turnHoldEvent, 8: turnHung, 9: turnInBudget}

// planRule names the rule each fallback round checks.
var planRule = map[string]string{turnLate: "PYYOL-PLAT-TURN-TIMEOUT", turnIllegal: "PYYOL-PLAT-FALLBACK",
	turnError: "PYYOL-PLAT-FALLBACK", turnDropped: "PYYOL-PLAT-FALLBACK", turnRedirect: "PYYOL-PLAT-NO-REDIRECT",
	turnEndless: "PYYOL-PLAT-BOUNDED-BODY", turnHung: "PYYOL-PLAT-ATTEMPT-TIMEOUT",
	turnInBudget: "PYYOL-PLAT-TURN-TIMEOUT"}

// seen is one request the platform made to the kit's endpoint.
type seen struct {
	method, host, path, query string
	header                    http.Header
	body                      []byte
	at                        time.Time
	// round is a turn's round (-1 for other routes); written is how much
	// of an endless answer went out; held and nextCame tell a held
	// /event's story.
	round   int
	written int64
	// cutAfter is how long after it arrived the platform dropped a turn
	// the kit was still holding (0: it did not).
	cutAfter time.Duration
	held     bool
	nextCame bool
}

// platformEndpoint is the kit's agent endpoint.
type platformEndpoint struct {
	redirectURL string
	budget      time.Duration

	mu      sync.Mutex
	log     []*seen
	views   map[int]turnView // the first view of each round
	armed   bool             // the next /event is to be held
	inits   int              // /initialize calls so far
	release chan struct{}    // closed when a turn comes during the hold
	turned  chan struct{}    // closed at the first turn
	ended   chan struct{}    // closed at the first /game-end
}

func newPlatformEndpoint(budget time.Duration) *platformEndpoint {
	return &platformEndpoint{budget: budget, views: map[int]turnView{}, turned: make(chan struct{}), ended: make(chan struct{})}
}

// ServeHTTP records the request and answers it as an agent would.
func (e *platformEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s := &seen{method: r.Method, host: r.Host, path: r.URL.Path, query: r.URL.RawQuery, header: r.Header.Clone(), body: body,
		at: time.Now(), round: -1}
	e.add(s)
	if strings.HasPrefix(r.URL.Path, redirectedDir+"/") {
		// Only a platform following the kit's 3xx comes here.
		v := readTurnView(body)
		reply(w, 200, map[string]any{"round": v.round, "card": v.highest()})
		return
	}
	// Routed by the last segment, as the SDK does, so a platform that
	// derives the siblings wrongly still gets its match played and the
	// siblings judge names the paths it used.
	switch path.Base(r.URL.Path) {
	case "health":
		reply(w, 200, map[string]any{"status": "healthy", "agent": "conformance-kit"})
	case "handshake":
		reply(w, 200, map[string]any{"accepted": true, "sdkVersion": "conformance-kit", "supportedGames": []string{"goofspiel"}})
	case "initialize":
		e.initialize(w)
	case "event":
		e.event(w, r, s)
	case "game-end":
		closeOnce(&e.mu, e.ended)
		reply(w, 200, map[string]any{"ok": true})
	case "turn":
		e.turn(w, r, s)
	default:
		reply(w, 404, map[string]any{"error": "not_found"})
	}
}

func (e *platformEndpoint) add(s *seen) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, s)
}

// requests returns what the endpoint received so far.
func (e *platformEndpoint) requests() []*seen {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.log)
}

// initialize answers the first /initialize 503, a transient failure a
// platform may retry (each try with a nonce of its own, PYYOL-PLAT-NONCE),
// and the others {"ready": true}. The ack is optional, so a platform that
// does not retry still plays.
func (e *platformEndpoint) initialize(w http.ResponseWriter) {
	e.mu.Lock()
	e.inits++
	first := e.inits == 1
	e.mu.Unlock()
	if first {
		reply(w, 503, map[string]any{"error": "kit_busy"})
		return
	}
	reply(w, 200, map[string]any{"ready": true})
}

// turn answers a /turn by the round's plan.
func (e *platformEndpoint) turn(w http.ResponseWriter, r *http.Request, s *seen) {
	v := readTurnView(s.body)
	s.round = v.round
	e.mu.Lock()
	_, retried := e.views[v.round]
	e.mu.Unlock()
	plan := e.noteTurn(v)
	answer := map[string]any{"round": v.round, "card": v.highest()}
	switch plan {
	case turnLate:
		if retried {
			// A second /turn of the late round comes after runtime.timeout
			// ran out on the first: answered at once, so a platform that
			// gives each attempt a fresh runtime.timeout takes a move the
			// turn's bound already ended (PYYOL-PLAT-TURN-TIMEOUT: the
			// bound is the turn's, not the attempt's).
			break
		}
		// The headers go out at once, the move after runtime.timeout: a
		// deadline that ends at the headers (ResponseHeaderTimeout) and
		// reads the body on without one takes the late move
		// (PYYOL-PLAT-TURN-TIMEOUT).
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		if wait(r, e.budget+lateBy) {
			json.NewEncoder(w).Encode(answer)
		}
		return
	case turnIllegal:
		answer["card"] = 99
	case turnError:
		// The 500 carries a move (the highest card): a platform that reads
		// the body whatever the status takes it instead of falling back
		// (PYYOL-PLAT-FALLBACK: "A non-200 from /turn").
		answer["error"] = "kit_error"
		reply(w, 500, answer)
		return
	case turnDropped:
		panic(http.ErrAbortHandler)
	case turnRedirect:
		w.Header().Set("Location", e.redirectURL)
		w.WriteHeader(http.StatusTemporaryRedirect)
		return
	case turnEndless:
		s.written = endless(w, r, answer)
		return
	case turnHung:
		wait(r, hungFor)
		return
	case turnInBudget:
		hold := time.Duration(float64(e.budget) * inBudgetAt)
		if !wait(r, hold) {
			e.mu.Lock()
			s.cutAfter = max(time.Since(s.at), time.Nanosecond)
			e.mu.Unlock()
			return
		}
	case turnHoldEvent:
		e.mu.Lock()
		e.armed = true
		e.mu.Unlock()
	}
	reply(w, 200, answer)
}

// noteTurn keeps the round's first view, releases a held /event and
// returns the round's plan.
func (e *platformEndpoint) noteTurn(v turnView) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.views[v.round]; !ok && v.round >= 0 {
		e.views[v.round] = v
	}
	select {
	case <-e.turned:
	default:
		close(e.turned)
	}
	if e.release != nil {
		close(e.release)
		e.release = nil
	}
	return turnPlan[v.round]
}

// event acks an /event; the first one after the hold round is held until
// the next /turn comes or eventHold passes (PYYOL-PLAT-ONE-WAY).
func (e *platformEndpoint) event(w http.ResponseWriter, r *http.Request, s *seen) {
	e.mu.Lock()
	var release chan struct{}
	if e.armed {
		e.armed, s.held = false, true
		release = make(chan struct{})
		e.release = release
	}
	e.mu.Unlock()
	if release != nil {
		t := time.NewTimer(eventHold)
		select {
		case <-release:
			s.nextCame = true
		case <-t.C:
		case <-r.Context().Done():
		}
		t.Stop()
		e.mu.Lock()
		if e.release == release {
			e.release = nil
		}
		e.mu.Unlock()
	}
	reply(w, 200, map[string]any{"ok": true})
}

// endless writes a legal answer whose padding never ends, until the
// platform stops reading or endlessCap is out; it returns the bytes
// written.
func endless(w http.ResponseWriter, r *http.Request, answer map[string]any) int64 {
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Now().Add(hungFor))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	head, _ := json.Marshal(answer)
	n, err := io.WriteString(w, strings.TrimSuffix(string(head), "}")+`,"pad":"`)
	total := int64(n)
	chunk := []byte(strings.Repeat("x", 64<<10))
	for err == nil && total <= endlessCap && r.Context().Err() == nil {
		n, err = w.Write(chunk)
		total += int64(n)
	}
	if err == nil {
		n, _ = io.WriteString(w, `"}`)
		total += int64(n)
	}
	return total
}

// wait holds a request d, or until the platform gives up on it; it
// reports whether d passed.
func wait(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func reply(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func closeOnce(mu *sync.Mutex, ch chan struct{}) {
	mu.Lock()
	defer mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}
