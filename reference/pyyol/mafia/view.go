package mafia

import (
	"slices"
	"strconv"
)

// View is a seat's turn view (games.md "Mafia/Turn view";
// PYYOL-MAFIA-VIEW): only what that seat may know.
type View struct {
	YourSeat int             `json:"your_seat"`
	YourRole string          `json:"your_role"`
	Day      int             `json:"day"`
	Phase    string          `json:"phase"`
	Alive    map[string]bool `json:"alive"`
	Allies   []int           `json:"allies,omitempty"`
	Legal    []string        `json:"legal"`
	Public   []Event         `json:"public"`
	Private  []Event         `json:"private"`
	// Roles is set only by the RolesLeaked defect: every seat's role.
	Roles []string `json:"roles,omitempty"`
}

// View returns seat's redacted view: its own role, its allies if Mafia
// (PYYOL-MAFIA-ALLIES), the whole public transcript (PYYOL-MAFIA-TRANSCRIPT)
// and only its own night results (PYYOL-MAFIA-PRIVATE-OWN).
func (m *Match) View(seat int) View {
	v := View{YourSeat: seat, YourRole: m.roles[seat], Day: m.day, Phase: m.phase,
		Alive: map[string]bool{}, Legal: m.Legal(seat), Public: m.Public(), Private: m.Private(seat), Roles: m.leakedRoles()}
	if v.Private == nil {
		v.Private = []Event{}
	}
	for s, ok := range m.alive {
		v.Alive[strconv.Itoa(s)] = ok
	}
	if m.roles[seat] == Mafia {
		v.Allies = m.allies(seat)
	}
	return v
}

// allies are the other Mafia seats, dead or alive (PYYOL-MAFIA-REF-ALLIES).
func (m *Match) allies(seat int) []int {
	out := []int{}
	for s, role := range m.roles {
		if role == Mafia && s != seat {
			out = append(out, s)
		}
	}
	return out
}

// Outcome is the final record game_end carries: the winning team, every
// seat's role revealed once the match is over (PYYOL-MAFIA-REF-REVEAL),
// the day reached and the full public transcript (PYYOL-MAFIA-GAME-END).
type Outcome struct {
	Winner     string   `json:"winner"`
	Roles      []string `json:"roles"`
	Day        int      `json:"day"`
	Transcript []Event  `json:"transcript"`
}

// Outcome is the match's final record; roles stay hidden until Done.
func (m *Match) Outcome() Outcome {
	o := Outcome{Winner: m.winner, Day: m.day, Transcript: m.Public()}
	if m.Done() {
		o.Roles = slices.Clone(m.roles)
	}
	return o
}

// Baseline is the kit's baseline player (PYYOL-MAFIA-REF-BASELINE): a
// quiet message, else the lowest seat it may name, avoiding known allies;
// the Doctor protects itself.
func Baseline(v View) Move {
	if len(v.Legal) == 0 {
		return Move{}
	}
	kind := v.Legal[0]
	switch kind {
	case ActMessage:
		return Move{Action: kind, Tone: "info", Text: "Watching quietly."}
	case ActProtect:
		return Move{Action: kind, Target: At(v.YourSeat)}
	}
	for s := 0; s < len(v.Alive); s++ {
		if v.Alive[strconv.Itoa(s)] && s != v.YourSeat && !slices.Contains(v.Allies, s) {
			return Move{Action: kind, Target: At(s)}
		}
	}
	return Move{Action: kind, Target: At(v.YourSeat)}
}

// ActionOf is a role's night action kind, "" for Villagers.
func ActionOf(role string) string { return nightAction(role) }
