package mafia

import (
	"errors"
	"fmt"
	"slices"
)

// Action kinds (games.md "Mafia/Actions"; PYYOL-MAFIA-ACTIONS).
const (
	ActNightKill   = "night_kill"
	ActInvestigate = "investigate"
	ActProtect     = "protect"
	ActProfile     = "profile"
	ActMessage     = "message"
	ActVote        = "vote"
)

// MaxText bounds a message body in runes (PYYOL-MAFIA-REF-TEXT).
const MaxText = 500

// Move is a seat's answer (games.md "Mafia/Your move"; PYYOL-MAFIA-MOVE).
type Move struct {
	Action string `json:"action"`
	Target *int   `json:"target,omitempty"`
	Tone   string `json:"tone,omitempty"`
	Text   string `json:"text,omitempty"`
}

// At returns a pointer to seat, for Move.Target.
func At(seat int) *int { return &seat }

// ErrIllegal wraps every refused move.
var ErrIllegal = errors.New("illegal move")

// Match is one Mafia match in progress.
type Match struct {
	roles   []string
	alive   []bool
	day     int
	phase   string
	acted   map[int]Move
	public  []Event
	private [][]Event
	winner  string
	defect  Defect
}

// New deals the roles from seed and opens night 1 (PYYOL-MAFIA-REF-DAY).
func New(seed []byte) *Match {
	return NewWithRoles(Deal(seed))
}

// NewWithRoles starts a match from a given deal of Seats roles (tests and
// tamper targets use it to fix who holds what).
func NewWithRoles(roles []string) *Match {
	m := &Match{roles: slices.Clone(roles), alive: make([]bool, len(roles)), private: make([][]Event, len(roles))}
	for i := range m.alive {
		m.alive[i] = true
	}
	m.day = 1
	m.enter(Night)
	return m
}

// Role returns seat's role (the engine's secret; views redact it).
func (m *Match) Role(seat int) string { return m.roles[seat] }

// Roles returns a copy of every seat's role.
func (m *Match) Roles() []string { return slices.Clone(m.roles) }

// Day is the day counter (PYYOL-MAFIA-REF-DAY).
func (m *Match) Day() int { return m.day }

// Phase is the current phase.
func (m *Match) Phase() string { return m.phase }

// Alive reports whether seat is still in the game.
func (m *Match) Alive(seat int) bool { return m.alive[seat] }

// Done reports whether the match reached the result phase.
func (m *Match) Done() bool { return m.phase == Result }

// Winner is the winning team once Done, else "".
func (m *Match) Winner() string { return m.winner }

// Legal is the action kinds seat may submit now (PYYOL-MAFIA-LEGAL): its
// role's night action at night, message at discussion, vote at voting;
// nothing once it acted, when dead, at morning or at result
// (PYYOL-MAFIA-NO-ACTION).
func (m *Match) Legal(seat int) []string {
	if seat < 0 || seat >= len(m.roles) || !m.alive[seat] {
		return []string{}
	}
	if _, done := m.acted[seat]; done {
		return []string{}
	}
	switch m.phase {
	case Night:
		if kind := nightAction(m.roles[seat]); kind != "" {
			return []string{kind}
		}
	case Discussion:
		return []string{ActMessage}
	case Voting:
		return []string{ActVote}
	}
	return []string{}
}

// nightAction is a role's night action; Villagers have none
// (PYYOL-MAFIA-ROLES, PYYOL-MAFIA-PHASE-NIGHT).
func nightAction(role string) string {
	switch role {
	case Mafia:
		return ActNightKill
	case Detective:
		return ActInvestigate
	case Doctor:
		return ActProtect
	case Sheriff:
		return ActProfile
	}
	return ""
}

// Waiting lists the seats whose move the phase still waits for.
func (m *Match) Waiting() []int {
	var out []int
	for seat := range m.roles {
		if len(m.Legal(seat)) > 0 {
			out = append(out, seat)
		}
	}
	return out
}

// Check says why mv is illegal for seat now, or nil.
func (m *Match) Check(seat int, mv Move) error {
	legal := m.Legal(seat)
	switch {
	case m.Done():
		return fmt.Errorf("%w: the match is over", ErrIllegal)
	case !slices.Contains(legal, mv.Action):
		// PYYOL-MAFIA-MOVE: action must be one of legal.
		return fmt.Errorf("%w: %q is not in legal %v", ErrIllegal, mv.Action, legal)
	case mv.Action == ActMessage:
		return checkMessage(mv)
	case mv.Target == nil:
		// PYYOL-MAFIA-MOVE: "required for vote, night_kill, investigate, protect, profile".
		return fmt.Errorf("%w: %s needs a target", ErrIllegal, mv.Action)
	}
	return m.checkTarget(seat, mv.Action, *mv.Target)
}

func checkMessage(mv Move) error {
	if n := len([]rune(mv.Text)); n > MaxText {
		return fmt.Errorf("%w: message text of %d runes exceeds %d", ErrIllegal, n, MaxText)
	}
	return nil
}

// checkTarget: every target is a living seat; the Doctor may protect
// itself (PYYOL-MAFIA-PROTECT-SELF); other actions may not name the actor,
// and the Mafia may not kill a Mafia seat (PYYOL-MAFIA-REF-TARGETS).
func (m *Match) checkTarget(seat int, action string, target int) error {
	switch {
	case target < 0 || target >= len(m.roles):
		return fmt.Errorf("%w: no seat %d", ErrIllegal, target)
	case !m.alive[target]:
		return fmt.Errorf("%w: seat %d is not alive", ErrIllegal, target)
	case target == seat && action != ActProtect:
		return fmt.Errorf("%w: %s may not target your own seat", ErrIllegal, action)
	case action == ActNightKill && m.roles[target] == Mafia:
		return fmt.Errorf("%w: seat %d is a fellow Mafia", ErrIllegal, target)
	}
	return nil
}

// Act records a legal move for seat and advances the phase once every
// waited-for seat has acted. An illegal move changes nothing.
func (m *Match) Act(seat int, mv Move) error {
	if err := m.Check(seat, mv); err != nil {
		return err
	}
	m.record(seat, mv)
	return nil
}

// Targets lists the seats seat may name with action now, ascending.
func (m *Match) Targets(seat int, action string) []int {
	var out []int
	for t := range m.roles {
		if m.checkTarget(seat, action, t) == nil {
			out = append(out, t)
		}
	}
	return out
}

// FallbackMove is the safe default the engine submits for a seat that
// missed its turn (PYYOL-MAFIA-FALLBACK, PYYOL-MAFIA-REF-FALLBACK): a
// quiet message, else the action aimed at the lowest seat it may name
// (the Doctor protects itself).
func (m *Match) FallbackMove(seat int) (Move, bool) {
	legal := m.Legal(seat)
	if len(legal) == 0 {
		return Move{}, false
	}
	switch kind := legal[0]; kind {
	case ActMessage:
		return Move{Action: kind, Tone: "info", Text: "(no message)"}, true
	case ActProtect:
		return Move{Action: kind, Target: At(seat)}, true
	default:
		return Move{Action: kind, Target: At(m.Targets(seat, kind)[0])}, true
	}
}

// Fallback submits seat's safe default; false when seat owes no move.
func (m *Match) Fallback(seat int) (Move, bool) {
	mv, ok := m.FallbackMove(seat)
	if ok {
		m.record(seat, mv)
	}
	return mv, ok
}

func (m *Match) record(seat int, mv Move) {
	m.acted[seat] = mv
	switch mv.Action {
	case ActMessage:
		// PYYOL-MAFIA-DISCUSSION: one public message per living seat;
		// PYYOL-MAFIA-EVENT-MESSAGE: from, tone, text.
		m.emit(EventMessage, map[string]any{"from": seat, "tone": mv.Tone, "text": mv.Text})
	case ActVote:
		// PYYOL-MAFIA-EVENT-VOTE: a vote is public (from, target).
		m.emit(EventVote, map[string]any{"from": seat, "target": *mv.Target})
	}
	if len(m.Waiting()) == 0 {
		m.advance()
	}
}
