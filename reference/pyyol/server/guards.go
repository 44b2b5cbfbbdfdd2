package server

import (
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/stakes"
)

// guard applies the owner's loss caps, cooldown and concurrency cap to a
// stake (PYYOL-STAKES-LOSS-CAPS, PYYOL-STAKES-COOLDOWN,
// PYYOL-STAKES-CONCURRENT); a tamper lifts one of them.
func (g *Gateway) guard(agentID string, stake int64) *stakes.Problem {
	l := g.limitsOf(agentID)
	g.mu.Lock()
	e := g.exposures[agentID]
	g.mu.Unlock()
	switch g.opts.Tamper {
	case IgnoresLossCaps:
		l.DailyLossLimit, l.SessionLossLimit = 0, 0
	case IgnoresCooldown:
		e.CooldownUntil = e.CooldownUntil.AddDate(-1, 0, 0)
	case IgnoresConcurrency:
		l.MaxConcurrentMatches = 0
	}
	return stakes.Guard(stake, l.Guards, e, g.opts.Clock()())
}

// entered counts a newly queued staked match against the concurrency cap;
// a stake that replaces one still waiting is the same match.
func (g *Gateway) entered(agentID string, replaced bool) {
	if replaced {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.exposures[agentID]
	e.Active++
	g.exposures[agentID] = e
}

// guardSettled books a finished staked match's outcome on the agent's
// exposure.
func (g *Gateway) guardSettled(agentID string, stake int64, outcome int) {
	l := g.limitsOf(agentID)
	now := g.opts.Clock()()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.exposures[agentID] = g.exposures[agentID].Settled(stake, outcome, l.Guards, now)
}

// newSession starts an agent's session loss count afresh: a session is
// one registration (PYYOL-REF-LIMIT-FIELDS).
func (g *Gateway) newSession(agentID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.exposures[agentID]
	e.LostSession = 0
	g.exposures[agentID] = e
}

// isGuard reports whether k names one of the guards a limits body may set.
func isGuard(k string) bool {
	var g stakes.Guards
	return setGuard(&g, k, 0)
}

// setGuard sets the guard named k to v; false means k names none.
func setGuard(g *stakes.Guards, k string, v int64) bool {
	fields := map[string]*int64{"daily_loss_limit": &g.DailyLossLimit, "session_loss_limit": &g.SessionLossLimit,
		"max_concurrent_matches": &g.MaxConcurrentMatches, "cooldown_losses": &g.CooldownLosses, "cooldown_seconds": &g.CooldownSeconds}
	f, ok := fields[k]
	if ok {
		*f = v
	}
	return ok
}

// stakesPractice is the StakesPractice tamper: a practice match lost
// costs the lowest tier, which PYYOL-SANDBOX-NO-STAKES forbids.
func (g *Gateway) stakesPractice(agentID string, seat int, res goofspiel.Result) {
	if g.opts.Tamper != StakesPractice || res.Winner != 1-seat {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.wallets[agentID]
	if !ok {
		l = practiceWallet
	}
	l.Balance -= stakes.Default()[0].Coins
	g.wallets[agentID] = l
}

// admitStake applies the stake bounds (PYYOL-STAKES-LIMITS); the
// StrictLimits tamper also refuses a stake that meets a bound exactly.
func (g *Gateway) admitStake(agentID string, stake int64) *stakes.Problem {
	l := g.limitsOf(agentID)
	if g.opts.Tamper == StrictLimits && (stake == l.MaxBid || stake == l.CoinLimitPerMatch || l.Balance == stake+l.MinWalletBalance) {
		return &stakes.Problem{Code: "over_max_bid", Message: "a stake at a bound (tamper)"}
	}
	return stakes.Admit(stake, l)
}
