package pyyol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// eventFields are the payload fields each event type documents
// (games.md "Mafia/Events").
var eventFields = map[string]struct {
	rule   string
	fields []string
}{
	"phase":     {"PYYOL-MAFIA-EVENT-PHASE", []string{"day", "phase"}},
	"message":   {"PYYOL-MAFIA-EVENT-MESSAGE", []string{"from", "tone", "text"}},
	"vote":      {"PYYOL-MAFIA-EVENT-VOTE", []string{"from", "target"}},
	"eliminate": {"PYYOL-MAFIA-EVENT-ELIMINATE", []string{"target", "cause"}},
}

// checkMafiaEvents: {seq, type, payload} in increasing seq of the
// documented types (PYYOL-MAFIA-EVENTS), each type's fields, a victory
// before game_end (PYYOL-MAFIA-EVENT-VICTORY), the agent's own messages
// told from its seat (ownMessagesFrom).
func checkMafiaEvents(mm *mafiaMatch) error {
	last := 0
	for _, e := range mm.events {
		known := slices.Contains(mafiaEventTypes, e.Type) || slices.Contains(mafiaExtensionTypes, e.Type)
		if e.Seq <= last || !known || e.Payload == nil {
			return verdict.Failf("PYYOL-MAFIA-EVENTS", "documented {seq, type, payload} events in increasing seq", e, "after seq %d", last)
		}
		last = e.Seq
		if e.Type == "moderator" && !hasText(e.Payload) {
			return verdict.Failf("PYYOL-MAFIA-EVENT-MODERATOR", "a narration line", e.Payload, "a moderator event")
		}
		want, ok := eventFields[e.Type]
		for _, k := range want.fields {
			if _, has := e.Payload[k]; ok && !has {
				return verdict.Failf(want.rule, want.fields, e.Payload, "a %s event without %s", e.Type, k)
			}
		}
	}
	if !slices.ContainsFunc(mm.events, func(e mafiaEvent) bool { return e.Type == "victory" }) {
		return verdict.Failf("PYYOL-MAFIA-EVENT-VICTORY", "a victory event", "none", "the match ended without one")
	}
	if err := victoryTeam(mm); err != nil {
		return err
	}
	if err := ownMessagesFrom(mm); err != nil {
		return err
	}
	return checkPhaseEvents(mm)
}

// ownMessagesFrom: a message event's from is the seat that spoke
// (PYYOL-MAFIA-EVENT-MESSAGE "A player message (from, tone, text)"), so
// the events carrying the text the agent posted (its own text names its
// seat and day, no other seat's) name the agent's seat. A text no event
// carries decides nothing here; that the move was played is
// PYYOL-MAFIA-MOVE's.
func ownMessagesFrom(mm *mafiaMatch) error {
	for _, t := range mm.turns {
		if t.answered == nil || t.answered.Action != mafia.ActMessage {
			continue
		}
		var froms []any
		for _, e := range mm.events {
			if e.Type == "message" && e.Payload["text"] == t.answered.Text {
				froms = append(froms, e.Payload["from"])
			}
		}
		if len(froms) > 0 && !slices.ContainsFunc(froms, func(f any) bool { return intOf(f) == mm.seat }) {
			return verdict.Failf("PYYOL-MAFIA-EVENT-MESSAGE", fmt.Sprintf("from %d, the agent's seat", mm.seat), froms,
				"the message events carrying the agent's text %q (day %d)", t.answered.Text, t.view.Day)
		}
	}
	return nil
}

// checkPhaseEvents: a phase event names the phase the match changed to
// ("A phase event carries {day, phase} at each phase change",
// PYYOL-MAFIA-EVENT-PHASE), so in each view's public transcript (the
// whole transcript, PYYOL-MAFIA-TRANSCRIPT), in seq order, the last phase
// event names the view's own phase. The event frames are not used for
// that: when the gateway sends them around the turn is not fixed. A
// transcript without phase events, or a phase outside the documented
// cycle, decides nothing. The phase events' days are then judged by seq
// alone (phaseDaysNeverFall).
func checkPhaseEvents(mm *mafiaMatch) error {
	for _, t := range mm.turns {
		var last *mafiaEvent
		for i, e := range t.view.Public {
			if e.Type == "phase" && (last == nil || e.Seq > last.Seq) {
				last = &t.view.Public[i]
			}
		}
		if last == nil || !slices.Contains(mafiaPhases, t.view.Phase) {
			continue
		}
		if ph, _ := last.Payload["phase"].(string); slices.Contains(mafiaPhases, ph) && ph != t.view.Phase {
			return verdict.Failf("PYYOL-MAFIA-EVENT-PHASE", fmt.Sprintf("the last phase event naming %s", t.view.Phase), ph,
				"the public transcript of a day %d %s view, phase event seq %d", t.view.Day, t.view.Phase, last.Seq)
		}
	}
	return phaseDaysNeverFall(mm)
}

// phaseDaysNeverFall: a phase event's day is the day counter
// (PYYOL-MAFIA-EVENT-PHASE "{day, phase}"; the view's day "increments
// each full night→day cycle", PYYOL-MAFIA-VIEW), and a counter that only
// increments never goes down: along the phase events in seq order, in
// the event frames and in the last view's public transcript alike, no
// day is below the one before it. Where in the cycle the counter steps
// up, and whether a phase event carries the day before or after a step,
// the docs leave open; a fall fits no reading. A phase event without a
// numeric day decides nothing.
func phaseDaysNeverFall(mm *mafiaMatch) error {
	if err := daysNeverFall(mm.events, "the phase event frames"); err != nil {
		return err
	}
	if n := len(mm.turns); n > 0 {
		public := slices.Clone(mm.turns[n-1].view.Public)
		slices.SortStableFunc(public, func(a, b mafiaEvent) int { return a.Seq - b.Seq })
		return daysNeverFall(public, "the last view's public transcript")
	}
	return nil
}

// daysNeverFall judges one seq-ordered list of events for phaseDaysNeverFall.
func daysNeverFall(events []mafiaEvent, where string) error {
	prev, prevSeq := -1.0, 0
	for _, e := range events {
		d, ok := e.Payload["day"].(float64)
		if e.Type != "phase" || !ok {
			continue
		}
		if d < prev {
			return verdict.Failf("PYYOL-MAFIA-EVENT-PHASE", fmt.Sprintf("day %v or later (the phase event seq %d said day %v)", prev, prevSeq, prev), d,
				"the %v phase event seq %d in %s", e.Payload["phase"], e.Seq, where)
		}
		prev, prevSeq = d, e.Seq
	}
	return nil
}

// checkMafiaTranscript: every view carries the whole public transcript so
// far (PYYOL-MAFIA-TRANSCRIPT) and game_end all of it
// (PYYOL-MAFIA-GAME-END).
func checkMafiaTranscript(mm *mafiaMatch) error {
	for _, t := range mm.turns {
		if missing := missingSeq(t.view.Public, mm.events, t.seenSeq); missing > 0 {
			return verdict.Failf("PYYOL-MAFIA-TRANSCRIPT", fmt.Sprintf("every public event up to seq %d", t.seenSeq),
				fmt.Sprintf("%d events, seq %d missing", len(t.view.Public), missing), "the view's public transcript")
		}
	}
	if !endCarries(mm.end, len(mm.events)) {
		return verdict.Failf("PYYOL-MAFIA-GAME-END", fmt.Sprintf("the %d events of the transcript", len(mm.events)), mm.end, "game_end.result")
	}
	return nil
}

// missingSeq is the first seq up to upTo the agent received as an event
// but the view's public transcript lacks, or 0. Seqs may have gaps: the
// docs only order events by seq.
func missingSeq(public, received []mafiaEvent, upTo int) int {
	have := map[int]bool{}
	for _, e := range public {
		have[e.Seq] = true
	}
	for _, e := range received {
		if e.Seq <= upTo && !have[e.Seq] {
			return e.Seq
		}
	}
	return 0
}

// endCarries reports whether some array of the result holds n events.
func endCarries(res map[string]any, n int) bool {
	for _, v := range res {
		list, ok := v.([]any)
		if !ok || len(list) < n {
			continue
		}
		if first, ok := list[0].(map[string]any); ok && first["seq"] != nil && first["type"] != nil {
			return true
		}
	}
	return n == 0
}

// next phases allowed after each phase (PYYOL-MAFIA-PHASES).
var nextPhase = map[string][]string{
	"":           {"night", "morning", "discussion", "voting"},
	"night":      {"morning"},
	"morning":    {"discussion", "result"},
	"discussion": {"voting"},
	"voting":     {"night", "result"},
}

// checkMafiaPhases: the cycle (PYYOL-MAFIA-PHASES), a moderator at
// morning (PYYOL-MAFIA-PHASE-MORNING), at most one night kill
// (PYYOL-MAFIA-ROLES), one message per living seat (PYYOL-MAFIA-DISCUSSION).
func checkMafiaPhases(mm *mafiaMatch) error {
	prev := ""
	runs := phaseRuns(mm.timeline())
	for _, run := range runs {
		phase := run[0].phase
		if run[0].event.Type == "phase" {
			if !slices.Contains(nextPhase[prev], phase) {
				return verdict.Failf("PYYOL-MAFIA-PHASES", nextPhase[prev], phase, "after %q on day %d", prev, run[0].day)
			}
			prev = phase
		}
	}
	for _, run := range runs {
		if err := checkPhaseRun(run[0].phase, run); err != nil {
			return err
		}
	}
	return nil
}

func checkPhaseRun(phase string, run []mafiaStep) error {
	kills, moderated, spoke := 0, false, map[int]bool{}
	for _, s := range run {
		switch s.event.Type {
		case "moderator":
			moderated = true
		case "eliminate":
			kills++
		case "message":
			from := intOf(s.event.Payload["from"])
			if phase != "discussion" || from < 0 || from >= 12 || !s.alive[from] || spoke[from] {
				return verdict.Failf("PYYOL-MAFIA-DISCUSSION", "one message per living seat at discussion", s.event, "at %s, day %d", phase, s.day)
			}
			spoke[from] = true
		}
	}
	if phase == "morning" && kills > 1 {
		return verdict.Failf("PYYOL-MAFIA-ROLES", "one seat killed at most", kills, "eliminations at morning, day %d", run[0].day)
	}
	if phase == "morning" && !moderated {
		return verdict.Failf("PYYOL-MAFIA-PHASE-MORNING", "the moderator's announcement", "none", "morning of day %d", run[0].day)
	}
	return nil
}

// checkMafiaVotes: at voting every living seat votes once and the
// plurality target is eliminated (PYYOL-MAFIA-VOTE); a tie resolved
// otherwise than the reference's lowest seat is a finding
// (PYYOL-MAFIA-REF-VOTE-TIE).
func checkMafiaVotes(mm *mafiaMatch, found func(error)) error {
	for _, run := range phaseRuns(mm.timeline()) {
		if run[0].phase != "voting" {
			continue
		}
		counts, voted, out := map[int]int{}, map[int]bool{}, -1
		for _, s := range run {
			switch s.event.Type {
			case "vote":
				from := intOf(s.event.Payload["from"])
				if from < 0 || from >= 12 || !s.alive[from] || voted[from] {
					return verdict.Failf("PYYOL-MAFIA-VOTE", "one vote per living seat", s.event, "day %d", s.day)
				}
				voted[from] = true
				counts[intOf(s.event.Payload["target"])]++
			case "eliminate":
				out = intOf(s.event.Payload["target"])
			}
		}
		living := 0
		for _, ok := range run[0].alive {
			if ok {
				living++
			}
		}
		if len(voted) != living {
			return verdict.Failf("PYYOL-MAFIA-VOTE", fmt.Sprintf("%d votes, one per living seat", living), len(voted), "day %d", run[0].day)
		}
		if err := judgeVote(counts, out, run[0].day, found); err != nil {
			return err
		}
	}
	return nil
}

func judgeVote(counts map[int]int, out, day int, found func(error)) error {
	top, tied := 0, []int{}
	for seat, n := range counts {
		switch {
		case n > top:
			top, tied = n, []int{seat}
		case n == top:
			tied = append(tied, seat)
		}
	}
	slices.Sort(tied)
	switch {
	case len(tied) == 0:
		return nil
	case len(tied) == 1 && out != tied[0]:
		return verdict.Failf("PYYOL-MAFIA-VOTE", fmt.Sprintf("seat %d eliminated", tied[0]), out, "votes %v on day %d", counts, day)
	case len(tied) > 1 && out >= 0 && !slices.Contains(tied, out):
		return verdict.Failf("PYYOL-MAFIA-VOTE", fmt.Sprintf("one of the tied seats %v", tied), out, "votes %v on day %d", counts, day)
	case len(tied) > 1 && out != tied[0]:
		found(verdict.Failf("PYYOL-MAFIA-REF-VOTE-TIE", fmt.Sprintf("seat %d (lowest tied)", tied[0]), out, "tie %v on day %d", tied, day))
	}
	return nil
}

// hasText reports whether a payload holds a non-empty string anywhere
// (the docs fix no field name for the moderator's line).
func hasText(p map[string]any) bool {
	for _, v := range p {
		if s, ok := v.(string); ok && s != "" {
			return true
		}
	}
	return false
}

// victoryTeam: the victory event names the team game_end's result says
// won (PYYOL-MAFIA-EVENT-VICTORY: "A victory event names the winning
// team"). Team names are compared without case; an event or a result
// that names no team of the two decides nothing here (the result's is
// PYYOL-MAFIA-TEAMS's).
func victoryTeam(mm *mafiaMatch) error {
	winner := strings.ToLower(strOf(mm.end["winner"]))
	for _, e := range mm.events {
		team := strings.ToLower(strOf(e.Payload["team"]))
		if e.Type != "victory" || team != "town" && team != "mafia" || winner != "town" && winner != "mafia" {
			continue
		}
		if team != winner {
			return verdict.Failf("PYYOL-MAFIA-EVENT-VICTORY", winner, team, "the victory event's team (game_end's winner %s)", winner)
		}
	}
	return nil
}
