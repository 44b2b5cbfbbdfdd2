package pyyol

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// TestMafiaEventsDecodeToOneModel: the real platform's spellings and the
// kit's earlier ones decode to the same model.
func TestMafiaEventsDecodeToOneModel(t *testing.T) {
	cases := []struct {
		name      string
		typ       string
		in, model map[string]any
	}{
		{"platform night result", "night", map[string]any{"actor": "Doctor", "seat": 4.0, "text": "t"},
			map[string]any{"actor": "Doctor", "seat": 4.0, "text": "t", "action": "protect"}},
		{"earlier night result", "night", map[string]any{"day": 1.0, "action": "protect", "target": 2.0},
			map[string]any{"day": 1.0, "action": "protect", "target": 2.0}},
		{"platform night kill", "eliminate", map[string]any{"target": 3.0, "cause": "mafia"},
			map[string]any{"target": 3.0, "cause": causeNightKill}},
		{"earlier night kill", "eliminate", map[string]any{"target": 3.0, "cause": "night_kill"},
			map[string]any{"target": 3.0, "cause": causeNightKill}},
		{"vote", "eliminate", map[string]any{"target": 3.0, "cause": "vote"}, map[string]any{"target": 3.0, "cause": causeVote}},
		{"victory by team", "victory", map[string]any{"team": "town", "text": "x"}, map[string]any{"team": "town", "text": "x"}},
		{"victory by winner", "victory", map[string]any{"winner": "mafia"}, map[string]any{"winner": "mafia", "team": "mafia"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := normalizeMafiaEvent(mafiaEvent{Type: c.typ, Payload: c.in}).Payload
			if d := cmp.Diff(c.model, got); d != "" {
				t.Errorf("model (-want +got):\n%s", d)
			}
		})
	}
}

// TestMafiaSilentEventIsAccepted: the real platform's "silent" event is
// accepted by PYYOL-MAFIA-EVENTS; an invented type still fails it.
func TestMafiaSilentEventIsAccepted(t *testing.T) {
	events := func(extra string) []mafiaEvent {
		return []mafiaEvent{{Seq: 1, Type: "phase", Payload: map[string]any{"day": 1.0, "phase": "night"}},
			{Seq: 2, Type: extra, Payload: map[string]any{"seat": 3.0, "phase": "night", "reason": "timeout"}},
			{Seq: 3, Type: "victory", Payload: map[string]any{"team": "town"}}}
	}
	if err := checkMafiaEvents(&mafiaMatch{events: events("silent")}); err != nil {
		t.Errorf("silent: %v", err)
	}
	if got := failedRule(checkMafiaEvents(&mafiaMatch{events: events("bonus")})); got != "PYYOL-MAFIA-EVENTS" {
		t.Errorf("bonus: got %q, want PYYOL-MAFIA-EVENTS", got)
	}
}

// TestMafiaNightResultsPairWithoutDayOrTarget: a protection result that
// names only its actor (the real platform) pairs with the night it
// answers, so PYYOL-MAFIA-PROTECT-SELF and the profile's record are read.
func TestMafiaNightResultsPairWithoutDayOrTarget(t *testing.T) {
	two := 2
	night := mafiaTurn{view: mafiaView{Phase: "night", Day: 1}, answered: &mafia.Move{Action: "profile", Target: &two}}
	later := mafiaTurn{view: mafiaView{Phase: "morning", Day: 1, Private: normalizeMafiaEvents([]mafiaEvent{
		{Seq: 1, Type: "night", Payload: map[string]any{"actor": "Sheriff", "seat": 5.0, "text": "profiled"}}})}}
	got := (&mafiaMatch{turns: []mafiaTurn{night, later}}).nights()
	if len(got) != 1 || got[0].result == nil || got[0].result["actor"] != "Sheriff" {
		t.Fatalf("nights() = %+v, want the Sheriff's result paired", got)
	}
	if err := checkNight(&mafiaMatch{}, got[0], nil); err != nil {
		t.Errorf("checkNight: %v", err)
	}
}
