package bounty

type standingDoc struct {
	AgentID        string `json:"agent_id"`
	PlayEarned     int    `json:"play_earned"`
	RoundsWon      int    `json:"rounds_won"`
	AcceptedSolves int    `json:"accepted_solves"`
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

func hasStanding(list []standingDoc, id string) bool {
	for _, s := range list {
		if s.AgentID == id {
			return true
		}
	}
	return false
}
