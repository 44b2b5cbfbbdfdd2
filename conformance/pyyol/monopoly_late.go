package pyyol

import (
	"fmt"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
)

// answerClock tells the Monopoly and Mafia answers the gateway surely
// counted from those that may have reached it after its turn timeout, when
// it played its fallback instead (PYYOL-MONO-FALLBACK: "miss it and the
// engine submits a safe legal action for you"; PYYOL-MAFIA-FALLBACK). A
// late answer's effects decide nothing, so how fast the runner answered
// never becomes a verdict.
//
// It reasons only from the runner's own times. The gateway sends a turn
// no earlier than base: the moment the runner sent what the gateway had
// to have before it (the register frame, or an answer it surely counted);
// after an answer that may have been late, base moves to the earlier of
// that answer and the last base plus the timeout, since the gateway waited
// out no more than its timeout before it went on. A gateway that timed a
// turn out sent the frame that follows the turn no earlier than the turn
// plus its timeout, so when that frame was read less than the timeout
// after base, the answer was in time. Pings carry no such news.
type answerClock struct {
	timeout time.Duration
	base    time.Time
	// late, when set, forgets the move of the answer whose following
	// frame has not been read yet (waiting); sent is when that answer
	// was sent.
	forget  func()
	sent    time.Time
	waiting bool
	// late counts the answers that may have come after the timeout.
	late int
	// now is the runner's clock (nil: time.Now; tests set their own).
	now func() time.Time
}

func (c *answerClock) read() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// turnTimeout is the gateway turn timeout the runner reasons with
// (--turn-timeout; default defaultTurnTimeout).
func turnTimeout(env *suite.Env) time.Duration {
	if env == nil {
		return defaultTurnTimeout
	}
	return env.Settings.Duration(turnTimeoutFlag.Name, defaultTurnTimeout)
}

// defaultTurnTimeout is no longer than any turn timeout the kit's own
// gateways use (the embedded reference's 500 ms, serve's 2 s): assuming
// a shorter timeout than the gateway's only leaves more answers unjudged,
// never judges a late one.
const defaultTurnTimeout = embeddedTurnTimeout

// registered starts the clock; it is called before the register frame is
// sent, so the gateway cannot have started a match earlier.
func (c *answerClock) registered(env *suite.Env) {
	*c = answerClock{timeout: turnTimeout(env), now: c.now}
	c.base = c.read()
}

// answering notes that the runner is about to send an answer (called
// before the send, so the time is never later than the gateway's receipt);
// forget (nil for an initialize) clears the answer's move should it turn
// out to have been possibly late.
func (c *answerClock) answering(forget func()) {
	c.forget, c.sent, c.waiting = forget, c.read(), true
}

// answeringTurn is answering for a Monopoly turn: a possibly late one
// loses its move and its probe mark, so no check reads an effect into it.
func (c *answerClock) answeringTurn(t *monoTurn) {
	c.answering(func() { t.move, t.probe, t.late = nil, false, true })
}

// followed is called as each initialize, turn, event or game_end frame is
// read: the first after an answer decides whether that answer surely
// counted; one that may not have is forgotten.
func (c *answerClock) followed() {
	if !c.waiting {
		return
	}
	c.waiting = false
	if c.read().Sub(c.base) < c.timeout {
		c.base = c.sent
		return
	}
	c.late++
	if at := c.base.Add(c.timeout); at.Before(c.sent) {
		c.base = at
	} else {
		c.base = c.sent
	}
	if c.forget != nil {
		c.forget()
	}
}

// followsAnswer reports whether a frame of type t is one a gateway sends
// only once it has settled the answer before it: a match's initialize,
// turn, event or game_end. Pings, and errors (which may answer the answer
// itself), say nothing of when the turn was settled.
func followsAnswer(t string) bool {
	switch t {
	case "initialize", "turn", "event", "game_end":
		return true
	}
	return false
}

// note records in the transcript how many answers decided nothing.
func (c *answerClock) note(env *suite.Env, turns int) {
	if c.late > 0 && env != nil && env.HTTP != nil {
		env.HTTP.Recorder().Note(fmt.Sprintf("%d of %d answers may have reached the gateway after its turn timeout (--turn-timeout %v) and were played by its fallback; the checks of their effects decided nothing",
			c.late, turns, c.timeout))
	}
}
