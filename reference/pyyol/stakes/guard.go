package stakes

import "time"

// Guards are the owner's guardrails beyond the stake bounds: the loss
// caps, the cooldown after a losing streak and the concurrency cap
// (ranked.md: "under the daily/session loss caps, cooldown, and
// `max_concurrent_matches`"). A zero guard is unset (PYYOL-REF-LIMIT-FIELDS).
type Guards struct {
	DailyLossLimit       int64 `json:"daily_loss_limit"`
	SessionLossLimit     int64 `json:"session_loss_limit"`
	MaxConcurrentMatches int64 `json:"max_concurrent_matches"`
	CooldownLosses       int64 `json:"cooldown_losses"`
	CooldownSeconds      int64 `json:"cooldown_seconds"`
}

// Exposure is what an agent's ranked play has done so far, the running
// figures the guards are judged against.
type Exposure struct {
	Day           string    // the UTC day LostToday counts
	LostToday     int64     // coins lost in ranked matches that day
	LostSession   int64     // coins lost since the agent's last registration
	Active        int64     // staked matches queued or in play
	LossStreak    int64     // losses in a row
	CooldownUntil time.Time // no ranked entry before this
}

// Guard says whether an agent may enter one more staked match of stake
// coins at now. The loss caps count the stake as coins at risk: a cap is
// kept only if losing this match too stays within it (PYYOL-STAKES-LOSS-CAPS);
// a cooldown refuses every entry until it ends (PYYOL-STAKES-COOLDOWN);
// the concurrency cap counts matches queued or in play
// (PYYOL-STAKES-CONCURRENT).
func Guard(stake int64, g Guards, e Exposure, now time.Time) *Problem {
	e = e.On(now)
	switch {
	case g.DailyLossLimit > 0 && e.LostToday+stake > g.DailyLossLimit:
		return problem("daily_loss_limit", "lost %d today; a stake of %d would pass daily_loss_limit %d", e.LostToday, stake, g.DailyLossLimit)
	case g.SessionLossLimit > 0 && e.LostSession+stake > g.SessionLossLimit:
		return problem("session_loss_limit", "lost %d this session; a stake of %d would pass session_loss_limit %d", e.LostSession, stake, g.SessionLossLimit)
	case now.Before(e.CooldownUntil):
		return problem("cooldown", "cooling down after a losing streak until %s", e.CooldownUntil.UTC().Format(time.RFC3339))
	case g.MaxConcurrentMatches > 0 && e.Active >= g.MaxConcurrentMatches:
		return problem("max_concurrent_matches", "%d staked matches already queued or in play (max_concurrent_matches %d)", e.Active, g.MaxConcurrentMatches)
	}
	return nil
}

// On returns the exposure as of now: a new UTC day starts its loss count
// afresh.
func (e Exposure) On(now time.Time) Exposure {
	if day := now.UTC().Format(time.DateOnly); e.Day != day {
		e.Day, e.LostToday = day, 0
	}
	return e
}

// Settled returns the exposure after a staked match of stake coins ended
// with outcome (1 win, 0 tie, -1 loss) at now: a loss counts against both
// caps and the streak, which starts the cooldown once it reaches
// cooldown_losses; a win ends the streak.
func (e Exposure) Settled(stake int64, outcome int, g Guards, now time.Time) Exposure {
	e = e.On(now)
	e.Active = max(e.Active-1, 0)
	switch {
	case outcome < 0:
		e.LostToday += stake
		e.LostSession += stake
		e.LossStreak++
		if g.CooldownLosses > 0 && e.LossStreak >= g.CooldownLosses {
			e.CooldownUntil = now.Add(time.Duration(g.CooldownSeconds) * time.Second)
			e.LossStreak = 0
		}
	case outcome > 0:
		e.LossStreak = 0
	}
	return e
}
