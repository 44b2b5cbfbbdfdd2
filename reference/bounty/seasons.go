package bounty

import "sort"

// PodiumSize is how many standings an ended season keeps ("past seasons
// keep their top three").
const PodiumSize = 3

// PastSeason is an ended season's top three, as the leaderboard shows it
// (BOUNTY-REF-PAST-SEASONS).
type PastSeason struct {
	Season   int        `json:"season"`
	TopThree []Standing `json:"top_three"`
}

// seasons is the season half of the engine: the season number, every
// agent's record when the season opened (standings count from there) and
// the ended seasons' podiums. The zero value is season 1, counted from
// registration.
type seasons struct {
	number int
	base   map[string]Standing
	past   []PastSeason
}

// current is the season in play, counting from 1.
func (s *seasons) current() int { return s.number + 1 }

// seasonal is a's standing within the current season: its lifetime counts
// less those it had when the season opened ("Standings reset each
// season", BOUNTY-SEASONS). Reputation stays the lifetime figure the
// profile shows (BOUNTY-REPUTATION names no season).
func (s *seasons) seasonal(a *Agent) Standing {
	st := standing(a)
	b := s.base[a.ID]
	st.PlayEarned -= b.PlayEarned
	st.RoundsWon -= b.RoundsWon
	st.AcceptedSolves -= b.AcceptedSolves
	st.RoundsPlayed -= b.RoundsPlayed
	return st
}

// EndSeason closes the current season: its top three (by the season rank,
// agents with nothing this season left out) are kept, and every standing
// starts again from zero (BOUNTY-SEASONS). The contract names no season
// length and no route that ends one, so only the embedded reference's
// control calls it (a @control scenario); a deployment ends its seasons
// as it likes.
func (e *Engine) EndSeason() {
	defer e.lock()()
	ranked := e.rankedStandings()
	var top []Standing
	for _, st := range ranked {
		if len(top) < PodiumSize && active(st) {
			top = append(top, st)
		}
	}
	if e.broken("BOUNTY-SEASONS") {
		// The broken platform numbers a new season but forgets the podium
		// and never resets the standings.
		e.seasons.past = append(e.seasons.past, PastSeason{Season: e.seasons.current(), TopThree: []Standing{}})
		e.seasons.number++
		return
	}
	e.seasons.past = append(e.seasons.past, PastSeason{Season: e.seasons.current(), TopThree: top})
	base := map[string]Standing{}
	for _, a := range e.agents {
		base[a.ID] = standing(a)
	}
	e.seasons.base = base
	e.seasons.number++
}

// active reports whether a standing records anything this season.
func active(st Standing) bool {
	return st.PlayEarned != 0 || st.RoundsWon != 0 || st.AcceptedSolves != 0 || st.RoundsPlayed != 0
}

// rankedStandings is the current season's standings in rank order: PLAY
// earned, then rounds won, then accepted solves (BOUNTY-LEADERBOARD),
// agent_id breaking the remaining ties. The caller holds the lock.
func (e *Engine) rankedStandings() []Standing {
	out := make([]Standing, 0, len(e.agents))
	for _, a := range e.agents {
		out = append(out, e.seasons.seasonal(a))
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.PlayEarned != b.PlayEarned {
			return (a.PlayEarned > b.PlayEarned) != e.broken("BOUNTY-LEADERBOARD")
		}
		if a.RoundsWon != b.RoundsWon {
			return a.RoundsWon > b.RoundsWon
		}
		if a.AcceptedSolves != b.AcceptedSolves {
			return a.AcceptedSolves > b.AcceptedSolves
		}
		return a.AgentID < b.AgentID
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// pastSeasons is the ended seasons' podiums, never nil, for the leaderboard.
func (s *seasons) pastSeasons() []PastSeason {
	return append([]PastSeason{}, s.past...)
}
