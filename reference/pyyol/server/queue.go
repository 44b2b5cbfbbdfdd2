package server

import (
	"net/http"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/stakes"
	"github.com/agentgames/conformance/reference/skeleton"
)

// ranked is the stake of a queued agent's next match.
type ranked struct {
	Tier  string `json:"tier"`
	Coins int64  `json:"coins"`
	Rake  int64  `json:"rake"`
	Delta int64  `json:"delta"`
}

// queue enters an agent in ranked matchmaking at a tier
// (PYYOL-REF-QUEUE): the documented errors in the order certification,
// tier, limits; a connected agent is then matched at once against the
// baseline bot, which the platform stakes.
func (g *Gateway) queue(w http.ResponseWriter, r *http.Request) {
	token, _ := skeleton.BearerToken(r)
	agentID, ok := g.resolve(token, "")
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized"})
		return
	}
	ts, known := g.tiersOf(r.PathValue("game"))
	if !known || r.PathValue("game") != "goofspiel" {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "ranked_unavailable"})
		return
	}
	var body struct{ Tier string }
	if ierr := skeleton.ReadJSON(r, maxBody, &body); ierr != nil { // the shared input policy (reference/skeleton)
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_request", "message": ierr.Message})
		return
	}
	stake, problem := g.admit(agentID, ts, body.Tier)
	if problem != nil {
		writeJSON(w, problem.status, map[string]string{"error": problem.code, "message": problem.message})
		return
	}
	g.mu.Lock()
	replaced := g.stakes[agentID] != nil
	g.stakes[agentID] = &ranked{Tier: body.Tier, Coins: stake, Rake: stakes.Rake(stake, RakePercent)}
	start := !g.playing[agentID] && g.agents[agentID] != nil
	if start {
		g.playing[agentID] = true
	}
	g.mu.Unlock()
	g.entered(agentID, replaced)
	if start {
		go g.practice(agentID, Frame{Games: []string{"goofspiel"}})
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"queued": true, "game": "goofspiel", "tier": body.Tier, "coins": stake})
}

type refusal struct {
	status        int
	code, message string
}

// admit applies the documented errors: "not certified", "tier_required" /
// "unknown_tier", "insufficient balance" and the agent's own limits.
func (g *Gateway) admit(agentID string, ts []stakes.Tier, tier string) (int64, *refusal) {
	if !g.certified(agentID) {
		// PYYOL-RANKED-CERTIFIED
		return 0, &refusal{http.StatusForbidden, "not_certified", "run pyyol publish --manifest <file> first"}
	}
	if tier == "" {
		// PYYOL-RANKED-TIER
		return 0, &refusal{http.StatusBadRequest, "tier_required", "pick a tier from the menu"}
	}
	var stake int64
	for _, t := range stakes.Menu(ts) {
		if t.Key == tier {
			stake = t.Coins
		}
	}
	if stake == 0 {
		return 0, &refusal{http.StatusBadRequest, "unknown_tier", "no enabled tier " + tier}
	}
	if p := g.admitStake(agentID, stake); p != nil && g.opts.Tamper != IgnoresLimits {
		// PYYOL-STAKES-LIMITS
		return 0, &refusal{http.StatusConflict, p.Code, p.Message}
	}
	if p := g.guard(agentID, stake); p != nil {
		// PYYOL-STAKES-LOSS-CAPS, PYYOL-STAKES-COOLDOWN, PYYOL-STAKES-CONCURRENT
		return 0, &refusal{http.StatusConflict, p.Code, p.Message}
	}
	return stake, nil
}

// claimStake takes the stake waiting for the agent's next match, if any.
func (g *Gateway) claimStake(agentID string) *ranked {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := g.stakes[agentID]
	delete(g.stakes, agentID)
	return st
}

// stakeWaiting reports whether a ranked match is queued for the agent.
func (g *Gateway) stakeWaiting(agentID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stakes[agentID] != nil
}

// settle pays out a finished ranked match (PYYOL-STAKES-SETTLEMENT) and
// returns the stake record for game_end; a practice match has none.
func (g *Gateway) settle(agentID string, st *ranked, seat int, res goofspiel.Result) *ranked {
	if st == nil {
		g.stakesPractice(agentID, seat, res)
		return nil
	}
	outcome := 0
	switch res.Winner {
	case seat:
		outcome = 1
	case 1 - seat:
		outcome = -1
	}
	st.Delta = stakes.Settle(st.Coins, st.Rake, outcome)
	g.guardSettled(agentID, st.Coins, outcome)
	if g.opts.Tamper == KeepsTieStakes && outcome == 0 {
		st.Delta = -st.Rake
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.wallets[agentID]
	if !ok {
		l = practiceWallet
	}
	l.Balance += st.Delta
	g.wallets[agentID] = l
	return st
}
