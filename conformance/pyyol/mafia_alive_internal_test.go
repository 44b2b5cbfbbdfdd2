package pyyol

import (
	"errors"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// lifeEv is one public Mafia event, its payload numbers as JSON decodes them.
func lifeEv(typ string, kv ...any) mafiaEvent {
	p := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		if n, ok := kv[i+1].(int); ok {
			p[kv[i].(string)] = float64(n)
			continue
		}
		p[kv[i].(string)] = kv[i+1]
	}
	return mafiaEvent{Type: typ, Payload: p}
}

func ph(day int, phase string) mafiaEvent { return lifeEv("phase", "day", day, "phase", phase) }

// failedRule is the rule an error names, "" for nil.
func failedRule(err error) string {
	if err == nil {
		return ""
	}
	var f *verdict.Failure
	if errors.As(err, &f) {
		return f.RuleID
	}
	return "?"
}

// TestMafiaLifeReadings: every reading the contract leaves open passes
// (the night kill emitted at night or at morning, the day counter grown
// at night or at morning) and each violation names its rule.
func TestMafiaLifeReadings(t *testing.T) {
	kill := lifeEv("eliminate", "target", 3, "cause", "night_kill")
	out := lifeEv("eliminate", "target", 4, "cause", "vote")
	cases := []struct {
		name   string
		events []mafiaEvent
		rule   string
	}{
		{"kill at morning, day grown at night", []mafiaEvent{ph(1, "night"), ph(1, "morning"), kill, ph(1, "discussion"), ph(1, "voting"), out, ph(2, "night")}, ""},
		{"kill at night, day grown at morning", []mafiaEvent{ph(0, "night"), kill, ph(1, "morning"), ph(1, "discussion"), ph(1, "voting"), out, ph(1, "night")}, ""},
		{"a kill at discussion", []mafiaEvent{ph(1, "night"), ph(1, "morning"), ph(1, "discussion"), kill}, "PYYOL-MAFIA-KILL-WHEN"},
		{"two kills in one night", []mafiaEvent{ph(1, "night"), kill, ph(1, "morning"), lifeEv("eliminate", "target", 5)}, "PYYOL-MAFIA-KILL-WHEN"},
		{"two seats voted out", []mafiaEvent{ph(1, "voting"), out, lifeEv("eliminate", "target", 6)}, "PYYOL-MAFIA-KILL-WHEN"},
		{"the day goes back", []mafiaEvent{ph(2, "night"), ph(1, "morning")}, "PYYOL-MAFIA-DAY"},
		{"a cycle skips a day", []mafiaEvent{ph(1, "night"), ph(1, "voting"), ph(3, "night")}, "PYYOL-MAFIA-DAY"},
		{"a dead seat votes", []mafiaEvent{ph(1, "morning"), kill, ph(1, "voting"), lifeEv("vote", "from", 3, "target", 4)}, "PYYOL-MAFIA-ALIVE"},
		{"a seat eliminated twice", []mafiaEvent{ph(1, "morning"), kill, ph(1, "voting"), kill}, "PYYOL-MAFIA-ALIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := failedRule(checkMafiaLife(&mafiaMatch{events: c.events})); got != c.rule {
				t.Errorf("got %q, want %q", got, c.rule)
			}
		})
	}
}

// TestMafiaAliveViews: a view showing alive a seat its own transcript
// eliminated, or a seat an earlier view showed dead, fails
// PYYOL-MAFIA-ALIVE; a consistent pair of views passes.
func TestMafiaAliveViews(t *testing.T) {
	kill := lifeEv("eliminate", "target", 3)
	view := func(public []mafiaEvent, alive3 bool) mafiaTurn {
		return mafiaTurn{view: mafiaView{Day: 1, Alive: map[string]any{"3": alive3, "4": true}, Public: public}}
	}
	cases := []struct {
		name  string
		turns []mafiaTurn
		rule  string
	}{
		{"consistent", []mafiaTurn{view(nil, true), view([]mafiaEvent{kill}, false)}, ""},
		{"eliminated yet alive", []mafiaTurn{view([]mafiaEvent{kill}, true)}, "PYYOL-MAFIA-ALIVE"},
		{"dead then alive again", []mafiaTurn{view(nil, false), view(nil, true)}, "PYYOL-MAFIA-ALIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := failedRule(checkMafiaLife(&mafiaMatch{turns: c.turns})); got != c.rule {
				t.Errorf("got %q, want %q", got, c.rule)
			}
		})
	}
}
