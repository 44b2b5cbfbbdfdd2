package pyyol

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

var (
	mafiaRoles   = []string{"Mafia", "Detective", "Doctor", "Sheriff", "Villager"}
	mafiaPhases  = []string{"night", "morning", "discussion", "voting", "result"}
	mafiaActions = map[string]string{"night_kill": "night", "investigate": "night", "protect": "night",
		"profile": "night", "message": "discussion", "vote": "voting"}
	mafiaEventTypes = []string{"phase", "moderator", "night", "message", "vote", "eliminate", "victory"}
	viewFields      = []string{"your_seat", "your_role", "day", "phase", "alive", "legal", "public", "private"}
)

// checkMafiaViews judges every turn view: the role's case, the documented
// fields, the night, the actions and the legal list.
func checkMafiaViews(mm *mafiaMatch, found func(error)) error {
	for i, t := range mm.turns {
		v := t.view
		if err := checkRoleCase(v); err != nil {
			return err
		}
		if err := checkViewFields(v); err != nil {
			return err
		}
		if err := checkLegal(v, mm.acted(i), found); err != nil {
			return err
		}
	}
	return checkRevealedCase(mm.revealedRoles())
}

// checkRevealedCase: every role game_end reveals (PYYOL-MAFIA-REF-REVEAL)
// is capitalised too (PYYOL-MAFIA-ROLE-CASE: "Role values are
// capitalized"); a value that is a Role only when case is ignored breaks
// it, any other is PYYOL-MAFIA-TABLE's to judge.
func checkRevealedCase(roles []string) error {
	for seat, r := range roles {
		if !slices.Contains(mafiaRoles, r) && slices.ContainsFunc(mafiaRoles, func(m string) bool { return strings.EqualFold(m, r) }) {
			return verdict.Failf("PYYOL-MAFIA-ROLE-CASE", mafiaRoles, r, "game_end.result.roles[%d] is not a capitalised Role value", seat)
		}
	}
	return nil
}

// checkRoleCase: your_role is one of the capitalised Role values
// (PYYOL-MAFIA-ROLE-CASE).
func checkRoleCase(v mafiaView) error {
	if !slices.Contains(mafiaRoles, v.YourRole) {
		return verdict.Failf("PYYOL-MAFIA-ROLE-CASE", mafiaRoles, v.YourRole, "your_role is not a capitalised Role value")
	}
	return nil
}

// checkViewFields: the turn view's documented fields with their types
// (PYYOL-MAFIA-VIEW).
func checkViewFields(v mafiaView) error {
	for _, k := range viewFields {
		if _, ok := v.raw[k]; !ok {
			return verdict.Failf("PYYOL-MAFIA-VIEW", viewFields, v.text, "the turn view lacks %s", k)
		}
	}
	if !slices.Contains(mafiaPhases, v.Phase) || v.Day < 0 || len(v.Alive) != mafia.Seats {
		return verdict.Failf("PYYOL-MAFIA-VIEW", "a phase value, a day counter and alive for 12 seats", v.text, "a malformed turn view")
	}
	for seat, ok := range v.Alive {
		if _, isBool := ok.(bool); !isBool || intOf(seat) < 0 {
			return verdict.Failf("PYYOL-MAFIA-VIEW", "alive as {seat: bool}", v.text, "alive[%s] is %v", seat, ok)
		}
	}
	return aliveBySeatIndex(v)
}

// aliveBySeatIndex: alive is keyed by the seats as your_seat numbers
// them, "Your seat index at the table" of "A full 12-seat table": every
// key is one of the indices 0..11 (PYYOL-MAFIA-VIEW). The docs' "{seat:
// bool} — who is still alive" leaves open whether a dead seat is listed
// false or left out, so a missing seat is no failure; a key outside the
// indices (a map keyed from 1 names a seat 12) is.
func aliveBySeatIndex(v mafiaView) error {
	if v.YourSeat < 0 || v.YourSeat >= mafia.Seats {
		return verdict.Failf("PYYOL-MAFIA-VIEW", fmt.Sprintf("a seat index 0..%d", mafia.Seats-1), v.YourSeat, "your_seat")
	}
	for seat := range v.Alive {
		if n, err := strconv.Atoi(seat); err != nil || n < 0 || n >= mafia.Seats {
			return verdict.Failf("PYYOL-MAFIA-VIEW", fmt.Sprintf("alive keyed by the seat indices 0..%d", mafia.Seats-1), v.text, "alive names seat %q", seat)
		}
	}
	return nil
}

// checkLegal: at night a Villager has no action (PYYOL-MAFIA-PHASE-NIGHT);
// every listed action is a documented one of this phase
// (PYYOL-MAFIA-ACTIONS); a living seat that has not acted may do exactly
// its role's action at night, message at discussion, vote at voting
// (PYYOL-MAFIA-LEGAL). Nothing at morning or result (PYYOL-MAFIA-NO-ACTION,
// a SHOULD, found in passing).
func checkLegal(v mafiaView, acted bool, found func(error)) error {
	if v.Phase == "night" && v.YourRole == "Villager" && len(v.Legal) > 0 {
		return verdict.Failf("PYYOL-MAFIA-PHASE-NIGHT", "no night action for a Villager", v.Legal, "legal at night, day %d", v.Day)
	}
	for _, kind := range v.Legal {
		if phase, ok := mafiaActions[kind]; !ok || phase != v.Phase {
			return verdict.Failf("PYYOL-MAFIA-ACTIONS", "actions legal in "+v.Phase, v.Legal, "%q is not an action of %s", kind, v.Phase)
		}
	}
	want := []string{}
	if alive, _ := v.Alive[fmt.Sprint(v.YourSeat)].(bool); alive && !acted {
		switch v.Phase {
		case "night":
			if kind := mafia.ActionOf(v.YourRole); kind != "" {
				want = []string{kind}
			}
		case "discussion":
			want = []string{"message"}
		case "voting":
			want = []string{"vote"}
		}
	}
	if (v.Phase == "morning" || v.Phase == "result") && len(v.Legal) > 0 {
		found(verdict.Failf("PYYOL-MAFIA-NO-ACTION", "no legal action", v.Legal, "at %s", v.Phase))
	}
	if !slices.Equal(want, v.Legal) && (v.Phase == "night" || v.Phase == "discussion" || v.Phase == "voting") {
		return verdict.Failf("PYYOL-MAFIA-LEGAL", want, v.Legal, "legal for a %s at %s, day %d", v.YourRole, v.Phase, v.Day)
	}
	return nil
}

// acted reports whether the agent already had a turn with a legal action
// in the same day and phase before turn i.
func (mm *mafiaMatch) acted(i int) bool {
	t := mm.turns[i].view
	for _, o := range mm.turns[:i] {
		if o.view.Day == t.Day && o.view.Phase == t.Phase && len(o.view.Legal) > 0 {
			return true
		}
	}
	return false
}

// checkMafiaRedaction: night results never public (PYYOL-MAFIA-NIGHT-PRIVATE),
// private holds only the seat's own results (PYYOL-MAFIA-PRIVATE-OWN),
// allies for Mafia only (PYYOL-MAFIA-ALLIES), no other seat's role
// anywhere (PYYOL-MAFIA-REDACTED).
func checkMafiaRedaction(mm *mafiaMatch) error {
	for _, e := range mm.events {
		if e.Type == "night" {
			return verdict.Failf("PYYOL-MAFIA-NIGHT-PRIVATE", "night results in the private stream only", e, "a public night event")
		}
	}
	for _, t := range mm.turns {
		if err := checkOwnPrivate(t.view); err != nil {
			return err
		}
		if err := checkAllies(mm, t.view); err != nil {
			return err
		}
		if err := checkNoRoles(t.view); err != nil {
			return err
		}
	}
	for _, e := range mm.events {
		if e.Type == "victory" {
			// Once a team has won nothing is secret any more.
			break
		}
		if leak := roleLeak(e.Payload, ""); leak != "" {
			return verdict.Failf("PYYOL-MAFIA-REDACTED", "no role of another seat", e, "an event shows %s", leak)
		}
	}
	return nil
}

func checkOwnPrivate(v mafiaView) error {
	for _, e := range v.Public {
		if e.Type == "night" {
			return verdict.Failf("PYYOL-MAFIA-NIGHT-PRIVATE", "night results in private only", e, "a night event in public")
		}
	}
	own := mafia.ActionOf(v.YourRole)
	for _, e := range v.Private {
		action, has := e.Payload["action"]
		if e.Type != "night" || own == "" || (has && action != own) {
			return verdict.Failf("PYYOL-MAFIA-PRIVATE-OWN", "only this "+v.YourRole+"'s own night results", e, "private holds another result")
		}
	}
	return nil
}

func checkAllies(mm *mafiaMatch, v mafiaView) error {
	_, present := v.raw["allies"]
	if v.YourRole != "Mafia" {
		if present {
			return verdict.Failf("PYYOL-MAFIA-ALLIES", "no allies for Town", v.raw["allies"], "a %s sees allies", v.YourRole)
		}
		return nil
	}
	// Whether dead allies stay listed is the platform's choice
	// (PYYOL-MAFIA-REF-ALLIES): an empty list is a reading, a missing one is not.
	if !present || len(v.Allies) > 2 || slices.Contains(v.Allies, v.YourSeat) {
		return verdict.Failf("PYYOL-MAFIA-ALLIES", "the fellow Mafia seats", v.raw["allies"], "allies of a Mafia seat")
	}
	if roles := mm.revealedRoles(); len(roles) == mafia.Seats {
		for _, a := range v.Allies {
			if a < 0 || a >= mafia.Seats || roles[a] != "Mafia" {
				return verdict.Failf("PYYOL-MAFIA-ALLIES", "fellow Mafia seats", v.Allies, "seat %d is not Mafia in the reveal", a)
			}
		}
	}
	return nil
}

func checkNoRoles(v mafiaView) error {
	rest := map[string]any{}
	for k, x := range v.raw {
		if k != "your_role" {
			rest[k] = x
		}
	}
	rest["private"] = withoutOwnActor(v.raw["private"], v.YourRole)
	if leak := roleLeak(rest, ""); leak != "" {
		return verdict.Failf("PYYOL-MAFIA-REDACTED", "no role of another seat", v.text, "the view of a %s shows %s", v.YourRole, leak)
	}
	return nil
}

// withoutOwnActor copies a private stream leaving out the actor of a
// night result when it is the seat's own role: the real platform names
// the actor's role in the actor's own results, which tells the seat
// nothing it does not know (PYYOL-MAFIA-REDACTED is about other seats).
func withoutOwnActor(private any, own string) any {
	list, ok := private.([]any)
	if !ok {
		return private
	}
	out := make([]any, len(list))
	for i, x := range list {
		out[i] = x
		e, isObj := x.(map[string]any)
		p, hasPayload := e["payload"].(map[string]any)
		if !isObj || !hasPayload || p["actor"] != own {
			continue
		}
		q := map[string]any{}
		for k, y := range p {
			if k != "actor" {
				q[k] = y
			}
		}
		c := map[string]any{}
		for k, y := range e {
			c[k] = y
		}
		c["payload"] = q
		out[i] = c
	}
	return out
}

// roleLeak finds a role value or a role-named key anywhere in x, except in
// the text of a player's message (a player may claim anything).
func roleLeak(x any, key string) string {
	switch v := x.(type) {
	case map[string]any:
		for k, y := range v {
			if lk := strings.ToLower(k); lk == "role" || lk == "roles" || lk == "your_role" {
				return fmt.Sprintf("a %q field", k)
			}
			if v["type"] == "message" && k == "payload" {
				continue
			}
			if leak := roleLeak(y, k); leak != "" {
				return leak
			}
		}
	case []any:
		for _, y := range v {
			if leak := roleLeak(y, key); leak != "" {
				return leak
			}
		}
	case string:
		if slices.Contains(mafiaRoles, v) && key != "text" {
			return fmt.Sprintf("the role %q at %q", v, key)
		}
	}
	return ""
}
