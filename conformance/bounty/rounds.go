package bounty

import (
	"encoding/json"
	"sort"
)

// standingDoc is one season standing as the runner reads it, whatever the
// field names the target uses (standingsOf).
type standingDoc struct {
	AgentID        string
	PlayEarned     float64
	RoundsWon      float64
	AcceptedSolves float64
}

// The names each standing's value goes by: the reference's first, then the
// other spellings a deployment may use, since the contract names the
// ranking's terms (PLAY earned, rounds won, accepted solves) but not the
// leaderboard's fields.
var (
	standingID     = []string{"agent_id", "agentId", "id"}
	standingPlay   = []string{"play_earned", "playEarned", "earned", "play", "earnings", "play_earned_season"}
	standingWins   = []string{"rounds_won", "roundsWon", "wins", "won"}
	standingSolves = []string{"accepted_solves", "acceptedSolves", "solves", "shares_solved"}
)

// standingsOf reads the season standings of a leaderboard answer in any
// layout the contract leaves open: the reference's {standings: [...]},
// another field holding the one list whose entries carry an agent_id, or
// a bare list. It says whether the layout is the reference's
// (BOUNTY-REF-LEADERBOARD-SHAPE), and ok is false when no list of
// standings with every ranking term is found: then the order is
// unchecked, never failed.
func standingsOf(body []byte) (list []standingDoc, reference, ok bool) {
	entries, reference := standingEntries(body)
	if entries == nil {
		return nil, false, false
	}
	for _, e := range entries {
		s, whole := readStanding(e)
		if !whole {
			return nil, false, false
		}
		reference = reference && e["agent_id"] != nil && e["play_earned"] != nil && e["rounds_won"] != nil && e["accepted_solves"] != nil
		list = append(list, s)
	}
	return list, reference, true
}

// standingEntries finds the list of standings: the "standings" field (the
// reference's, reported as such), a bare list, or the only field whose
// value is a list of objects carrying an agent id.
func standingEntries(body []byte) ([]map[string]json.RawMessage, bool) {
	var bare []map[string]json.RawMessage
	if json.Unmarshal(body, &bare) == nil {
		return bare, false
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return nil, false
	}
	if raw, ok := doc["standings"]; ok {
		var list []map[string]json.RawMessage
		if json.Unmarshal(raw, &list) == nil {
			return list, true
		}
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var found []map[string]json.RawMessage
	for _, k := range keys {
		var list []map[string]json.RawMessage
		if json.Unmarshal(doc[k], &list) != nil || len(list) == 0 || firstOf(list[0], standingID) == nil {
			continue
		}
		if found != nil {
			return nil, false // two candidate lists: which one ranks is not the kit's guess
		}
		found = list
	}
	return found, false
}

// readStanding reads one entry; whole is false when it lacks an id or one
// of the three ranking terms.
func readStanding(e map[string]json.RawMessage) (s standingDoc, whole bool) {
	id, play, wins, solves := firstOf(e, standingID), firstOf(e, standingPlay), firstOf(e, standingWins), firstOf(e, standingSolves)
	if id == nil || play == nil || wins == nil || solves == nil {
		return s, false
	}
	if json.Unmarshal(id, &s.AgentID) != nil || s.AgentID == "" ||
		json.Unmarshal(play, &s.PlayEarned) != nil || json.Unmarshal(wins, &s.RoundsWon) != nil || json.Unmarshal(solves, &s.AcceptedSolves) != nil {
		return s, false
	}
	return s, true
}

// firstOf returns the value of the first of names that e holds.
func firstOf(e map[string]json.RawMessage, names []string) json.RawMessage {
	for _, n := range names {
		if v, ok := e[n]; ok && string(v) != "null" {
			return v
		}
	}
	return nil
}

// ranksAbove reports whether a must rank above b: PLAY earned, then rounds
// won, then accepted solves.
func ranksAbove(a, b standingDoc) bool {
	if a.PlayEarned != b.PlayEarned {
		return a.PlayEarned > b.PlayEarned
	}
	if a.RoundsWon != b.RoundsWon {
		return a.RoundsWon > b.RoundsWon
	}
	return a.AcceptedSolves > b.AcceptedSolves
}

// standingOf is id's standing in list.
func standingOf(list []standingDoc, id string) (standingDoc, bool) {
	for _, s := range list {
		if s.AgentID == id {
			return s, true
		}
	}
	return standingDoc{}, false
}
