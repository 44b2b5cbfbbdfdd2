package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// nightRecord is what the agent answered one night and what its private
// stream said of it afterwards.
type nightRecord struct {
	day    int
	move   mafia.Move
	result map[string]any
}

// nights pairs each night action the agent answered with the private
// result naming that day, if any came.
func (mm *mafiaMatch) nights() []nightRecord {
	var out []nightRecord
	final := mm.lastPrivate()
	nth := map[string]int{}
	for i, t := range mm.turns {
		if t.answered == nil || t.view.Phase != "night" || t.answered.Target == nil || i == len(mm.turns)-1 {
			// A night with no later view has no result the seat could see.
			continue
		}
		r := nightRecord{day: t.view.Day, move: *t.answered}
		r.result = nightResult(final, r, nth[r.move.Action])
		nth[r.move.Action]++
		out = append(out, r)
	}
	return out
}

// nightResult finds a night's result in the private stream: by its day;
// without a day by its target; with neither (the real platform names
// only the actor for a protection or a profile) the n-th result of the
// same action.
func nightResult(private []mafiaEvent, r nightRecord, n int) map[string]any {
	var same []map[string]any
	for _, e := range private {
		p := e.Payload
		if p["day"] != nil && intOf(p["day"]) == r.day || p["day"] == nil && p["target"] != nil && intOf(p["target"]) == *r.move.Target {
			return p
		}
		if p["day"] == nil && p["target"] == nil && strOf(p["action"]) == r.move.Action {
			same = append(same, p)
		}
	}
	if n < len(same) {
		return same[n]
	}
	return nil
}

// lastPrivate is the private stream of the latest view.
func (mm *mafiaMatch) lastPrivate() []mafiaEvent {
	if len(mm.turns) == 0 {
		return nil
	}
	return mm.turns[len(mm.turns)-1].view.Private
}

// checkMafiaNightResults: the Detective learns MAFIA or TOWN, true to the
// revealed role (PYYOL-MAFIA-INVESTIGATE); the Sheriff's profile is
// recorded with no finding (PYYOL-MAFIA-PROFILE); the Doctor's own seat
// may be protected (PYYOL-MAFIA-PROTECT-SELF) and a protected seat does
// not die that night (PYYOL-MAFIA-PROTECT).
func checkMafiaNightResults(mm *mafiaMatch) error {
	roles := mm.revealedRoles()
	for _, n := range mm.nights() {
		if err := checkNight(mm, n, roles); err != nil {
			return err
		}
	}
	return nil
}

func checkNight(mm *mafiaMatch, n nightRecord, roles []string) error {
	target := *n.move.Target
	switch n.move.Action {
	case mafia.ActInvestigate:
		finding := strOf(n.result["finding"])
		if n.result == nil || (finding != "MAFIA" && finding != "TOWN") {
			return verdict.Failf("PYYOL-MAFIA-INVESTIGATE", `a private finding "MAFIA" or "TOWN"`, n.result, "investigating seat %d, day %d", target, n.day)
		}
		if len(roles) == mafia.Seats && finding != mafia.Finding(roles[target]) {
			return verdict.Failf("PYYOL-MAFIA-INVESTIGATE", mafia.Finding(roles[target]), finding, "seat %d is a %s", target, roles[target])
		}
	case mafia.ActProfile:
		if _, has := n.result["finding"]; n.result == nil || has {
			return verdict.Failf("PYYOL-MAFIA-PROFILE", "a private record with no finding", n.result, "profiling seat %d, day %d", target, n.day)
		}
	case mafia.ActProtect:
		if n.result != nil && n.result["target"] != nil && intOf(n.result["target"]) != target {
			return verdict.Failf("PYYOL-MAFIA-PROTECT-SELF", target, n.result["target"], "the Doctor's protection of seat %d, day %d", target, n.day)
		}
		if mm.killedAt(n.day, target) {
			return verdict.Failf("PYYOL-MAFIA-PROTECT", "the protected seat survives the night", target, "seat %d eliminated at morning of day %d", target, n.day)
		}
	}
	return nil
}

// killedAt reports whether seat was eliminated in the morning of day.
func (mm *mafiaMatch) killedAt(day, seat int) bool {
	return slices.ContainsFunc(mm.timeline(), func(s mafiaStep) bool {
		return s.phase == "morning" && s.day == day && s.event.Type == "eliminate" && intOf(s.event.Payload["target"]) == seat
	})
}

// checkMafiaMoves: every move the agent answered from its legal list was
// played as answered (PYYOL-MAFIA-MOVE); a missed or illegal first turn
// got the seat a safe default and the match went on (PYYOL-MAFIA-FALLBACK).
func checkMafiaMoves(mm *mafiaMatch, found func(error)) error {
	for _, t := range mm.turns {
		if t.answered == nil || (t.view.Phase != "discussion" && t.view.Phase != "voting") {
			continue
		}
		e, ok := mm.ownEvent(t.view.Day, t.view.Phase)
		if !ok || !playedAs(e, *t.answered) {
			return verdict.Failf("PYYOL-MAFIA-MOVE", t.answered, e.Payload, "the agent's %s on day %d", t.view.Phase, t.view.Day)
		}
	}
	if !mm.missed {
		return nil
	}
	first := mm.turns[0].view
	if first.Phase != "discussion" && first.Phase != "voting" {
		return nil
	}
	e, ok := mm.ownEvent(first.Day, first.Phase)
	if !ok {
		return verdict.Failf("PYYOL-MAFIA-FALLBACK", "a safe default for the seat", "nothing", "the missed %s on day %d", first.Phase, first.Day)
	}
	if e.Type == "message" && e.Payload["text"] != "(no message)" {
		found(verdict.Failf("PYYOL-MAFIA-REF-FALLBACK", "(no message)", e.Payload["text"], "the default message"))
	}
	return nil
}

// ownEvent is the agent's own message or vote event of a day's phase.
func (mm *mafiaMatch) ownEvent(day int, phase string) (mafiaEvent, bool) {
	for _, s := range mm.timeline() {
		if s.day == day && s.phase == phase && (s.event.Type == "message" || s.event.Type == "vote") && intOf(s.event.Payload["from"]) == mm.seat {
			return s.event, true
		}
	}
	return mafiaEvent{}, false
}

func playedAs(e mafiaEvent, mv mafia.Move) bool {
	if mv.Action == mafia.ActMessage {
		return e.Type == "message" && e.Payload["text"] == mv.Text
	}
	return e.Type == "vote" && mv.Target != nil && intOf(e.Payload["target"]) == *mv.Target
}
