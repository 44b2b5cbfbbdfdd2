package pyyol

import (
	"strconv"

	"github.com/agentgames/conformance/conformance/verdict"
)

// checkMafiaLife: an eliminated seat stays out (PYYOL-MAFIA-ALIVE),
// eliminations come only from the night's kill or the vote
// (PYYOL-MAFIA-KILL-WHEN) and the day counter keeps time
// (PYYOL-MAFIA-DAY). All three are MUST rules; the first violated is
// named.
func checkMafiaLife(mm *mafiaMatch) error {
	for _, check := range []func(*mafiaMatch) error{checkKillWhen, checkDayCounter, checkAliveViews, checkDeadStayOut} {
		if err := check(mm); err != nil {
			return err
		}
	}
	return nil
}

// checkAliveViews: a seat the view's own transcript eliminated is not
// shown alive, and a seat once shown dead is never shown alive again
// (PYYOL-MAFIA-ALIVE: "who is still alive"). A seat shown dead with no
// eliminate event is left alone: the contract does not say every death
// has one.
func checkAliveViews(mm *mafiaMatch) error {
	dead := map[string]bool{}
	for _, t := range mm.turns {
		for _, e := range t.view.Public {
			if e.Type == "eliminate" {
				dead[strconv.Itoa(intOf(e.Payload["target"]))] = true
			}
		}
		for seat, v := range t.view.Alive {
			alive, isBool := v.(bool)
			if isBool && alive && dead[seat] {
				return verdict.Failf("PYYOL-MAFIA-ALIVE", "an eliminated seat shown dead", t.view.text, "seat %s alive at %s, day %d", seat, t.view.Phase, t.view.Day)
			}
			if isBool && !alive {
				dead[seat] = true
			}
		}
	}
	return nil
}

// checkDeadStayOut: once eliminated, a seat neither speaks, votes nor is
// eliminated again (PYYOL-MAFIA-ALIVE), in the event frames and in every
// view's public transcript, which stands alone ("the entire public
// transcript every turn"): a transcript whose dead seat votes after its
// elimination fails even where the frames told it right.
func checkDeadStayOut(mm *mafiaMatch) error {
	if err := deadStayOut(mm.timeline()); err != nil {
		return err
	}
	for _, t := range mm.turns {
		if err := deadStayOut(timelineOf(bySeq(t.view.Public))); err != nil {
			return err
		}
	}
	return nil
}

// deadStayOut judges one timeline (checkDeadStayOut).
func deadStayOut(steps []mafiaStep) error {
	for _, s := range steps {
		seat := -1
		switch s.event.Type {
		case "message", "vote":
			seat = intOf(s.event.Payload["from"])
		case "eliminate":
			seat = intOf(s.event.Payload["target"])
		}
		if seat >= 0 && seat < len(s.alive) && !s.alive[seat] {
			return verdict.Failf("PYYOL-MAFIA-ALIVE", "an eliminated seat takes no further part", s.event, "seat %d, eliminated earlier, at %s of day %d", seat, s.phase, s.day)
		}
	}
	return nil
}

// checkKillWhen: the night's kill is announced by morning (it may be
// emitted at night or at morning, a reading the contract leaves open:
// both are accepted, one kill at most over the two), the vote eliminates
// at voting (one at most), and discussion eliminates no one
// (PYYOL-MAFIA-KILL-WHEN).
func checkKillWhen(mm *mafiaMatch) error {
	nightKills := 0
	for _, run := range phaseRuns(mm.timeline()) {
		phase, n := run[0].phase, eliminations(run)
		switch phase {
		case "night":
			nightKills = n
		case "morning":
			nightKills += n
		}
		bad := (phase == "discussion" && n > 0) || (phase == "voting" && n > 1) || ((phase == "night" || phase == "morning") && nightKills > 1)
		if bad {
			return verdict.Failf("PYYOL-MAFIA-KILL-WHEN", "one night kill by morning, one vote-out at voting, none at discussion", n,
				"eliminations at %s of day %d", phase, run[0].day)
		}
		if phase != "night" && phase != "morning" {
			nightKills = 0
		}
	}
	return nil
}

// eliminations counts the eliminate events of one phase run.
func eliminations(run []mafiaStep) int {
	n := 0
	for _, s := range run {
		if s.event.Type == "eliminate" {
			n++
		}
	}
	return n
}

// checkDayCounter: the day of the phase events and of the views never
// goes back, and from one night to the next it grows by exactly one
// (PYYOL-MAFIA-DAY: "increments each full night→day cycle"). Where in
// the cycle it grows is open (PYYOL-MAFIA-REF-DAY) and not judged.
func checkDayCounter(mm *mafiaMatch) error {
	last, lastNight := -1, -1
	for _, e := range mm.events {
		day, isNum := e.Payload["day"].(float64)
		if e.Type != "phase" || !isNum {
			continue
		}
		d := int(day)
		if d < last {
			return verdict.Failf("PYYOL-MAFIA-DAY", "a day counter that never goes back", e, "day %d after day %d", d, last)
		}
		if strOf(e.Payload["phase"]) == "night" {
			if lastNight >= 0 && d != lastNight+1 {
				return verdict.Failf("PYYOL-MAFIA-DAY", lastNight+1, d, "the day of the night after the night of day %d", lastNight)
			}
			lastNight = d
		}
		last = d
	}
	return checkViewDays(mm)
}

// checkViewDays: the turn views' day never goes back (PYYOL-MAFIA-DAY).
func checkViewDays(mm *mafiaMatch) error {
	last := 0
	for _, t := range mm.turns {
		if t.view.Day < last {
			return verdict.Failf("PYYOL-MAFIA-DAY", "a day counter that never goes back", t.view.Day, "a %s view after day %d", t.view.Phase, last)
		}
		last = t.view.Day
	}
	return nil
}
