package pyyol

// The Mafia event model the checks read. games.md names the event types
// and some payload fields; where it is silent the real platform and the
// kit's reference have each chosen a spelling, and the decoder maps both
// onto one model, so no check depends on which one a deployment speaks.

// causeNightKill and causeVote are the model's elimination causes: the
// night's kill (the real platform writes "mafia", earlier references
// "night_kill") and the vote (both write "vote").
const (
	causeNightKill = "night_kill"
	causeVote      = "vote"
)

// mafiaExtensionTypes are event types a real platform sends beyond the
// documented seven: "silent" records a seat that produced no action for
// a phase. The contract does not forbid them; PYYOL-MAFIA-EVENTS still
// fails an invented type.
var mafiaExtensionTypes = []string{"silent"}

// roleActions is each role's night action, for a night result that names
// the actor's role (the real platform) instead of the action (the kit's
// earlier reference).
var roleActions = map[string]string{"Mafia": "night_kill", "Detective": "investigate", "Doctor": "protect", "Sheriff": "profile"}

// normalizeMafiaEvents maps every event of a list onto the model.
func normalizeMafiaEvents(events []mafiaEvent) []mafiaEvent {
	for i := range events {
		events[i] = normalizeMafiaEvent(events[i])
	}
	return events
}

// normalizeMafiaEvent maps one event onto the model: a night result's
// action (from action or the actor's role), an elimination's cause, and
// a victory's team (from team or winner). Fields it does not know are
// kept as they came.
func normalizeMafiaEvent(e mafiaEvent) mafiaEvent {
	p := e.Payload
	if p == nil {
		return e
	}
	out := make(map[string]any, len(p)+1)
	for k, v := range p {
		out[k] = v
	}
	switch e.Type {
	case "night":
		if _, has := out["action"]; !has {
			if a, ok := roleActions[strOf(out["actor"])]; ok {
				out["action"] = a
			}
		}
	case "eliminate":
		if c := strOf(out["cause"]); c == "mafia" || c == "night" || c == "kill" {
			out["cause"] = causeNightKill
		}
	case "victory":
		if _, has := out["team"]; !has && out["winner"] != nil {
			out["team"] = out["winner"]
		}
	}
	e.Payload = out
	return e
}
