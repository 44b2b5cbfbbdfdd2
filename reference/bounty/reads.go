package bounty

import (
	"encoding/hex"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Manifest answers GET manifest: every share's puzzle (BOUNTY-MANIFEST,
// BOUNTY-THRESHOLD, BOUNTY-LADDER).
func (e *Engine) Manifest(cid string) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.openRoundFor(cid)
	if err != nil {
		return nil, err
	}
	k, puzzles := K, append([]Puzzle(nil), r.Puzzles...)
	if e.broken("BOUNTY-THRESHOLD") {
		k = 2
	}
	if e.broken("BOUNTY-LADDER") {
		puzzles[3].Params.DifficultyBits = 12
	}
	return map[string]any{"challenge_id": r.ChallengeID, "round": r.Number,
		"threshold": map[string]int{"k": k, "n": N}, "bounty": e.bountyBlock(), "puzzles": puzzles}, nil
}

func (e *Engine) bountyBlock() map[string]any {
	// BOUNTY-PLAY-MONEY
	return map[string]any{"amount": BountyAmount, "currency": Currency, "real_money": e.broken("BOUNTY-PLAY-MONEY")}
}

// PuzzleOf answers GET puzzle/{share_index}.
func (e *Engine) PuzzleOf(cid string, share int) (Puzzle, *Error) {
	defer e.lock()()
	r, err := e.openRoundFor(cid)
	if err != nil {
		return Puzzle{}, err
	}
	if share < 1 || share > N {
		return Puzzle{}, fail(404, "unknown_share", "share_index must be 1..n")
	}
	p := r.Puzzles[share-1]
	if e.broken("BOUNTY-MANIFEST") {
		p.Params.SeedHex, p.Params.PrefixHex, p.Params.A = "00", "00", "1"
	}
	return p, nil
}

// Status answers GET status, for open and closed rounds alike
// (BOUNTY-CLOSED-READABLE).
func (e *Engine) Status(cid string) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.anyRound(cid)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"challenge_id": r.ChallengeID, "round": r.Number, "open": r.Open,
		"threshold": map[string]int{"k": K, "n": N}, "bounty": e.bountyBlock(),
		"winners": append([]string{}, r.Winners...), "live_challenge_id": e.live().ChallengeID}
	if !r.Open {
		out["closed_at"] = r.ClosedAt.UTC().Format(time.RFC3339)
	}
	e.leakShares("BOUNTY-NO-SECRETS", r, out)
	return out, nil
}

// Metrics answers GET metrics: aggregates only, no identities, contacts,
// shares or solutions (BOUNTY-METRICS).
func (e *Engine) Metrics(cid string) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.anyRound(cid)
	if err != nil {
		return nil, err
	}
	s := r.stats
	rejected := map[string]int{}
	for k, v := range s.CombineRejected {
		rejected[k] = v
	}
	out := map[string]any{"challenge_id": r.ChallengeID, "round": r.Number, "open": r.Open,
		"solve_attempts":       map[string]int{"accepted": s.SolvesAccepted, "rejected": s.SolvesRejected},
		"combine_attempts":     map[string]any{"total": s.CombineAttempts, "rejected_by_code": rejected},
		"peers":                map[string]int{"live_listings": len(e.listings), "list_events": s.ListEvents},
		"timings":              map[string]float64{"first_solve_s": s.FirstSolveS, "win_s": s.WinS},
		"repeated_cooperation": map[string]int{"winners_won_before": s.WinnersWonBefore, "pairs_won_together_before": s.PairsWonBefore},
	}
	if e.broken("BOUNTY-METRICS") {
		out["winners"] = r.Winners
	}
	if e.broken("BOUNTY-METRICS#solution") {
		out["sample_solution"] = hex.EncodeToString(DecodePlaintext(r.Puzzles[2].Params)) // share 3, the decode puzzle
	}
	return out, nil
}

// Challenges answers GET challenges: the live challenge_id first
// (BOUNTY-REGISTRY).
func (e *Engine) Challenges() map[string]any {
	defer e.lock()()
	live := e.live()
	if e.broken("BOUNTY-REGISTRY") && len(e.rounds) > 1 {
		live = e.rounds[len(e.rounds)-2]
	}
	var closed []map[string]any
	for _, r := range e.rounds[:len(e.rounds)-1] {
		closed = append(closed, map[string]any{"challenge_id": r.ChallengeID, "round": r.Number})
	}
	current, completed := e.roundCounters()
	return map[string]any{"active": map[string]any{"challenge_id": live.ChallengeID, "round": live.Number},
		"current_round": current, "rounds_completed": completed, "closed": closed}
}

// roundCounters are the manifest's rounds.current_round and
// rounds.rounds_completed (BOUNTY-ROUNDS-COMPLETED): the live round's
// number and how many rounds a win has closed since the engine started,
// so each win advances both by one. The caller holds the lock.
func (e *Engine) roundCounters() (current, completed int) {
	current, completed = e.live().Number, len(e.rounds)-1
	if e.broken("BOUNTY-ROUNDS-COMPLETED") {
		completed = 0 // a counter that never moves
	}
	if e.broken("BOUNTY-ROUNDS-COMPLETED#current") && completed > 0 {
		current-- // still names the round the win closed
	}
	return current, completed
}

// Ledger answers GET ledger (BOUNTY-LEDGER).
func (e *Engine) Ledger() map[string]any {
	defer e.lock()()
	return map[string]any{"currency": Currency, "real_money": false, "payouts": append([]Payout{}, e.ledger...)}
}

// Standing is one leaderboard line.
type Standing struct {
	Rank           int    `json:"rank"`
	AgentID        string `json:"agent_id"`
	Name           string `json:"name"`
	PlayEarned     int    `json:"play_earned"`
	RoundsWon      int    `json:"rounds_won"`
	AcceptedSolves int    `json:"accepted_solves"`
	RoundsPlayed   int    `json:"rounds_played"`
	Reputation     int    `json:"reputation"`
	House          bool   `json:"house"`
}

// reputation is 10*rounds_won + 3*accepted_solves + rounds_played -
// 10*operator_strikes (BOUNTY-REPUTATION).
func reputation(a *Agent) int {
	return 10*a.RoundsWon + 3*a.AcceptedSolves + len(a.PlayedRounds) - 10*a.Strikes
}

func standing(a *Agent) Standing {
	return Standing{AgentID: a.ID, Name: a.Name, PlayEarned: a.Earned, RoundsWon: a.RoundsWon,
		AcceptedSolves: a.AcceptedSolves, RoundsPlayed: len(a.PlayedRounds), Reputation: reputation(a), House: a.House}
}

// Leaderboard answers the current season's standings in rank order
// (BOUNTY-LEADERBOARD, BOUNTY-SEASONS) and the ended seasons' top three.
func (e *Engine) Leaderboard() map[string]any {
	defer e.lock()()
	// The layout is the reference's (BOUNTY-REF-LEADERBOARD-SHAPE,
	// BOUNTY-REF-PAST-SEASONS): the contract names the ranking's terms, not
	// the fields.
	return map[string]any{"season": e.seasons.current(), "currency": Currency, "real_money": false,
		"standings": e.rankedStandings(), "past_seasons": e.seasons.pastSeasons()}
}

// Profile answers GET /agents/{agent_id}: never the secret
// (BOUNTY-PROFILE-READ, BOUNTY-REG-SECRET).
func (e *Engine) Profile(id string) (map[string]any, *Error) {
	defer e.lock()()
	a, ok := e.agents[id]
	if !ok {
		return nil, fail(404, "unknown_agent", "agent_id is not registered")
	}
	return e.profile(a), nil
}

func (e *Engine) profile(a *Agent) map[string]any {
	s := standing(a)
	out := map[string]any{"agent_id": a.ID, "name": a.Name, "contact": a.Contact, "notify_set": a.NotifyURL != "",
		"self_declared": []string{"name", "contact", "notify_url"}, "house": a.House,
		"registered_round": a.RegisteredRound, "rounds_won": s.RoundsWon, "accepted_solves": s.AcceptedSolves,
		"rounds_played": s.RoundsPlayed, "operator_strikes": a.Strikes, "play_earned": s.PlayEarned, "reputation": s.Reputation}
	if e.broken("BOUNTY-REG-SECRET") {
		out["agent_secret"] = a.Secret
	}
	if e.broken("BOUNTY-REPUTATION") {
		out["reputation"] = 10*a.RoundsWon + 3*a.AcceptedSolves
	}
	return out
}

// ProfileEdit is a POST /agents/profile body; nil fields are left alone.
type ProfileEdit struct {
	AgentID   string
	Secret    string
	Name      *string
	Contact   *string
	NotifyURL *string
}

// EditProfile needs the agent_secret (BOUNTY-PROFILE-SECRET), a unique
// 2-32 char name (BOUNTY-PROFILE-NAME) and an https notify_url or "" to
// clear it (BOUNTY-PROFILE-NOTIFY). A refusal changes nothing.
func (e *Engine) EditProfile(req ProfileEdit) (map[string]any, *Error) {
	defer e.lock()()
	a, ok := e.agents[req.AgentID]
	if !ok {
		return nil, fail(404, "unknown_agent", "agent_id is not registered")
	}
	if !secretMatches(a, req.Secret) && !e.broken("BOUNTY-PROFILE-SECRET") {
		return nil, fail(403, "bad_secret", "agent_secret does not match")
	}
	if req.Name != nil {
		if n := utf8.RuneCountInString(*req.Name); !e.nameFits(n) && !e.broken("BOUNTY-PROFILE-NAME") {
			return nil, fail(400, "bad_request", "name must be 2-32 chars")
		}
		if owner, taken := e.names[strings.ToLower(*req.Name)]; taken && owner != a.ID {
			return nil, fail(409, "name_taken", "that name belongs to another agent")
		}
	}
	if req.Contact != nil && !e.contactFits(*req.Contact, true) { // BOUNTY-PROFILE-CONTACT
		return nil, fail(400, "bad_request", "contact is at most 256 chars")
	}
	if req.NotifyURL != nil && *req.NotifyURL != "" && !isHTTPS(*req.NotifyURL) && !e.broken("BOUNTY-PROFILE-NOTIFY") {
		return nil, fail(400, "bad_request", "notify_url must be an https URL")
	}
	e.applyProfile(a, req)
	return map[string]any{"ok": true, "profile": e.profile(a)}, nil
}

func (e *Engine) applyProfile(a *Agent, req ProfileEdit) {
	if req.Name != nil {
		delete(e.names, strings.ToLower(a.Name))
		a.Name = *req.Name
		e.names[strings.ToLower(a.Name)] = a.ID
	}
	if req.Contact != nil {
		a.Contact = *req.Contact
	}
	if req.NotifyURL != nil {
		a.NotifyURL = *req.NotifyURL
	}
}

func isHTTPS(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

// Discovery answers the well-known document (BOUNTY-DISCOVERY): the
// contract's shape with the live challenge and endpoints under base.
func (e *Engine) Discovery(base string) map[string]any {
	defer e.lock()()
	live := e.live()
	c := base + "/challenge/" + live.ChallengeID
	current, completed := e.roundCounters()
	return map[string]any{"protocol": "agent-puzzle-bounty/1", "challenge_id": live.ChallengeID, "round": live.Number,
		"threshold": map[string]int{"k": K, "n": N}, "bounty": e.bountyBlock(),
		"rounds": map[string]any{"current_round": current, "rounds_completed": completed, "registry": base + "/challenges"},
		"endpoints": map[string]string{"register_challenge": base + "/register/challenge", "register": base + "/register",
			"manifest": c + "/manifest", "puzzle": c + "/puzzle/{share_index}", "solve": c + "/solve", "combine": c + "/combine",
			"status": c + "/status", "peers": c + "/peers", "metrics": c + "/metrics",
			"next_move": c + "/next_move?agent_id={agent_id}", "ledger": base + "/ledger", "challenges": base + "/challenges"}}
}
