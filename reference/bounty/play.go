package bounty

import (
	"crypto/subtle"
	"encoding/hex"
	"sort"
	"strconv"
)

// roundStats are the aggregates metrics publishes (BOUNTY-METRICS).
type roundStats struct {
	SolvesAccepted   int
	SolvesRejected   int
	CombineAttempts  int
	CombineRejected  map[string]int
	ListEvents       int
	FirstSolveS      float64
	WinS             float64
	WinnersWonBefore int
	PairsWonBefore   int
}

// RegChallenge answers POST register_challenge (BOUNTY-REG-CHALLENGE).
func (e *Engine) RegChallenge() map[string]any {
	defer e.lock()()
	tok := "reg-" + e.hexID(16)
	e.tokens[tok] = false
	if e.broken("BOUNTY-REG-CHALLENGE") { // BOUNTY-REG-CHALLENGE broken on purpose
		return map[string]any{"reg_token": tok}
	}
	return map[string]any{"reg_token": tok, "pow_bits": RegBits}
}

// Register answers POST register: the proof is checked in leading zero
// bits (BOUNTY-REG-POW), a token registers once (BOUNTY-REG-TOKEN), and the
// agent_secret is disclosed here only (BOUNTY-REG-SECRET).
func (e *Engine) Register(token, nonce string) (map[string]any, *Error) {
	defer e.lock()()
	spent, ok := e.tokens[token]
	switch {
	case token == "":
		return nil, fail(400, "bad_request", "reg_token and nonce are required")
	case !ok:
		return nil, fail(404, "unknown_token", "no such reg_token")
	case spent:
		return nil, fail(409, "token_spent", "this reg_token already registered an agent")
	case !RegistrationOK(token, nonce, RegBits) && !(e.broken("BOUNTY-REG-POW") && RegistrationOK(token, nonce, RegBits-1)):
		return nil, fail(422, "insufficient_work", "sha256(reg_token + nonce) has fewer than pow_bits leading zero bits")
	}
	e.tokens[token] = true
	a := &Agent{ID: "agent-" + e.hexID(6), Secret: "sk-" + e.hexID(16), RegisteredRound: e.live().Number, PlayedRounds: map[int]bool{}}
	e.agents[a.ID] = a
	return map[string]any{"ok": true, "agent_id": a.ID, "agent_secret": a.Secret}, nil
}

// Solve answers POST solve: a correct solution discloses the share and
// credits the solver (BOUNTY-SOLVE-SHARE, BOUNTY-HOLDINGS); a wrong one
// changes nothing but the rejected count (BOUNTY-SOLVE-AGENT).
func (e *Engine) Solve(cid, agentID string, share int, sol Solution) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.openRoundFor(cid)
	if err != nil {
		return nil, err
	}
	a, ok := e.agents[agentID] // agent_ids persist across rounds (BOUNTY-IDENTITY-PERSIST)
	if !ok {
		return nil, fail(404, "unknown_agent", "agent_id is not registered")
	}
	if share < 1 || share > N {
		return nil, fail(404, "unknown_share", "share_index must be 1..n")
	}
	if verr := e.verify(r.Puzzles[share-1], sol); verr != nil {
		if verr == ErrBadSolution {
			return nil, fail(400, "bad_request", "the solution does not fit the puzzle's submit schema")
		}
		r.stats.SolvesRejected++
		if e.broken("BOUNTY-SOLVE-SHARE") || e.broken("BOUNTY-HOLDINGS") {
			e.credit(r, a, share)
		}
		return nil, fail(422, "wrong_solution", "the solution does not verify")
	}
	if e.credit(r, a, share) {
		// research_telemetry counts accepted solve attempts: an agent
		// solving a share it already holds again earns nothing new, so
		// it is not another accepted solve.
		r.stats.SolvesAccepted++
	}
	if r.stats.FirstSolveS == 0 {
		r.stats.FirstSolveS = e.now().Sub(r.OpenedAt).Seconds()
	}
	if l := e.listings[agentID]; l != nil && l.WorkingOn == share && !e.broken("BOUNTY-INTENT") {
		l.WorkingOn = 0 // BOUNTY-INTENT: cleared by the accepted solve
	}
	r.LastProgress = e.now()
	e.touchCombinable(r)
	out := map[string]any{"ok": true, "share_index": share, "share_hex": hex.EncodeToString(r.Shares[share-1])}
	e.leakShares("BOUNTY-NO-SECRETS#solve", r, out) // BOUNTY-NO-SECRETS: its own share only
	return out, nil
}

// credit records an accepted solve: the share is now held and credited
// to this solver only (BOUNTY-HOLDINGS, BOUNTY-CREDIT). It reports whether
// the solve was new: a repeat of a share the agent already holds changes
// nothing.
func (e *Engine) credit(r *Round, a *Agent, share int) bool {
	if r.Solvers[share] == nil {
		r.Solvers[share] = map[string]bool{}
	}
	if r.Solvers[share][a.ID] {
		return false
	}
	r.Solvers[share][a.ID] = true
	a.AcceptedSolves++
	a.PlayedRounds[r.Number] = true
	return true
}

// Submission is one combine entry.
type Submission struct {
	AgentID    string `json:"agent_id"`
	ShareIndex int    `json:"share_index"`
	ShareHex   string `json:"share_hex"`
}

// Combine answers POST combine: >= k distinct agents (BOUNTY-COMBINE-AGENTS)
// and >= k distinct shares (BOUNTY-COMBINE-SHARES), every pair an accepted
// solve (BOUNTY-CREDIT), shares that reconstruct the committed key
// (BOUNTY-RECONSTRUCT), codes per BOUNTY-COMBINE-CODES; a win pays and
// rotates (BOUNTY-PAYOUT, BOUNTY-ROTATION).
func (e *Engine) Combine(cid string, subs []Submission) (map[string]any, *Error) {
	defer e.lock()()
	if out, ok := e.raceWins(cid, subs); ok {
		return out, nil // BOUNTY-COMBINE-RACE broken on purpose
	}
	if r, ok := e.byID[cid]; ok && !r.Open && len(r.Winners) > 0 && !e.broken("BOUNTY-STALE-410") {
		// BOUNTY-COMBINE-RACE: a combine that lost the race to the win
		// is refused already_solved (with the closed round's 410,
		// BOUNTY-REF-STALE-410)
		return nil, fail(410, "already_solved", "this round was already won; GET /challenges for the live challenge_id")
	}
	r, err := e.openRoundFor(cid)
	if err != nil {
		return nil, err
	}
	r.stats.CombineAttempts++
	shares, agents, err := e.checkCombine(r, subs)
	if err != nil {
		r.stats.CombineRejected[err.Code]++
		return nil, err
	}
	got, cerr := Combine(shares)
	lax := e.broken("BOUNTY-RECONSTRUCT") || e.broken("BOUNTY-COMBINE-SHARES")
	if want := commitment(r.Key); !lax && (cerr != nil || subtle.ConstantTimeCompare(got, r.Key) != 1 || commitment(got) != want) {
		r.stats.CombineRejected["bad_reconstruction"]++
		e.burnCredits(r, subs)
		reason := "the shares do not reconstruct the key" // BOUNTY-NO-SECRETS: naming no key
		if e.broken("BOUNTY-NO-SECRETS#refusal") {
			reason += " " + hex.EncodeToString(r.Key)
		}
		return nil, fail(422, "bad_reconstruction", reason)
	}
	payouts := e.win(r, agents)
	if e.broken("BOUNTY-METRICS-COUNTS") {
		r.stats.CombineAttempts-- // only the refused attempts counted
	}
	// BOUNTY-REF-WIN-SECRETS: the winning answer names the payouts and the
	// next round, never the key or a share (the seed leaves it open).
	return map[string]any{"ok": true, "won": true, "round": r.Number, "challenge_id": r.ChallengeID,
		"payouts": payouts, "currency": Currency, "real_money": false, "next_challenge_id": e.live().ChallengeID}, nil
}

// checkCombine validates a submission and returns its distinct shares (one
// per index) and its distinct agents, sorted.
func (e *Engine) checkCombine(r *Round, subs []Submission) ([][]byte, []string, *Error) {
	if len(subs) == 0 {
		return nil, nil, fail(400, "bad_request", "submissions [{agent_id, share_index, share_hex}] is required")
	}
	byIndex := map[int][]byte{}
	agentSet := map[string]bool{}
	for _, s := range subs {
		raw, err := hex.DecodeString(s.ShareHex)
		if err != nil || len(raw) != KeyLen+1 || s.ShareIndex < 1 || s.ShareIndex > N || int(raw[KeyLen]) != s.ShareIndex || s.AgentID == "" {
			return nil, nil, fail(400, "bad_request", "each submission is {agent_id, share_index 1..n, share_hex of 33 bytes ending in x = share_index}")
		}
		if prev, dup := byIndex[s.ShareIndex]; dup && hex.EncodeToString(prev) != s.ShareHex {
			return nil, nil, fail(400, "bad_request", "share index "+strconv.Itoa(s.ShareIndex)+" submitted twice with different share_hex")
		}
		byIndex[s.ShareIndex] = raw
		agentSet[s.AgentID] = true
	}
	if len(agentSet) < K && !e.broken("BOUNTY-COMBINE-AGENTS") {
		return nil, nil, fail(422, "too_few_agents", "combine needs shares from >= k distinct agent_ids")
	}
	if len(byIndex) < K && !e.broken("BOUNTY-COMBINE-SHARES") {
		return nil, nil, fail(422, "too_few_shares", "combine needs >= k distinct share indices")
	}
	for _, s := range subs {
		if !r.Solvers[s.ShareIndex][s.AgentID] && !e.broken("BOUNTY-CREDIT") {
			return nil, nil, fail(409, "unearned_share", s.AgentID+" has no accepted solve of share "+strconv.Itoa(s.ShareIndex)+" this round")
		}
	}
	var shares [][]byte
	for _, raw := range byIndex {
		shares = append(shares, raw)
	}
	agents := make([]string, 0, len(agentSet))
	for a := range agentSet {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	return shares, agents, nil
}

// win pays the credited agents an equal split, remainder to the lowest ids
// (BOUNTY-PAYOUT-SPLIT), records the repeated game and opens the next
// round (BOUNTY-ROTATION).
func (e *Engine) win(r *Round, agents []string) map[string]int {
	payouts := map[string]int{}
	base, rest := BountyAmount/len(agents), BountyAmount%len(agents)
	for i, id := range agents {
		amount := base
		if i < rest {
			amount++
		}
		payouts[id] = amount
		a := e.agents[id]
		if a.RoundsWon > 0 || e.broken("BOUNTY-METRICS-COUNTS#repeat") {
			r.stats.WinnersWonBefore++
		}
		a.RoundsWon++
		a.LastWonRound = r.Number
		a.Earned += amount
		e.ledger = append(e.ledger, Payout{Round: r.Number, ChallengeID: r.ChallengeID, AgentID: id, Amount: amount, Currency: Currency})
	}
	if e.broken("BOUNTY-PAYOUT") {
		payouts["agent-house"] = 1
	}
	for i := range agents {
		for j := i + 1; j < len(agents); j++ {
			pair := [2]string{agents[i], agents[j]}
			if e.pairsWon[pair] {
				r.stats.PairsWonBefore++
			}
			e.pairsWon[pair] = true
		}
	}
	r.Open, r.ClosedAt, r.Winners = false, e.now(), agents
	r.stats.WinS = e.now().Sub(r.OpenedAt).Seconds()
	e.openRound()
	return payouts
}

// secretMatches compares an agent_secret in constant time.
func secretMatches(a *Agent, secret string) bool {
	return subtle.ConstantTimeCompare([]byte(a.Secret), []byte(secret)) == 1
}
