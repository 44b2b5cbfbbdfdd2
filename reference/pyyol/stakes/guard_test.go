package stakes

import (
	"testing"
	"time"
)

// TestGuardRefusesAtEachCap: every guard refuses exactly where its cap is
// reached and not a coin or a match before; unset guards refuse nothing.
func TestGuardRefusesAtEachCap(t *testing.T) {
	now := time.Date(2026, 7, 6, 12, 0, 0, 0, time.UTC)
	day := now.Format(time.DateOnly)
	cases := []struct {
		name string
		g    Guards
		e    Exposure
		want string
	}{
		{"unset guards", Guards{}, Exposure{Day: day, LostToday: 1e6, LostSession: 1e6, Active: 99}, ""},
		{"daily cap met exactly", Guards{DailyLossLimit: 200}, Exposure{Day: day, LostToday: 100}, ""},
		{"daily cap one coin short", Guards{DailyLossLimit: 199}, Exposure{Day: day, LostToday: 100}, "daily_loss_limit"},
		{"yesterday's losses", Guards{DailyLossLimit: 100}, Exposure{Day: "2026-07-05", LostToday: 100}, ""},
		{"session cap", Guards{SessionLossLimit: 150}, Exposure{Day: day, LostSession: 100}, "session_loss_limit"},
		{"cooldown running", Guards{}, Exposure{CooldownUntil: now.Add(time.Second)}, "cooldown"},
		{"cooldown over", Guards{}, Exposure{CooldownUntil: now}, ""},
		{"concurrency below the cap", Guards{MaxConcurrentMatches: 2}, Exposure{Active: 1}, ""},
		{"concurrency at the cap", Guards{MaxConcurrentMatches: 2}, Exposure{Active: 2}, "max_concurrent_matches"},
	}
	for _, c := range cases {
		p := Guard(100, c.g, c.e, now)
		got := ""
		if p != nil {
			got = p.Code
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSettledStartsTheCooldownAfterTheStreak: losses count against both
// caps and the streak; cooldown_losses in a row start the pause; a win
// ends the streak.
func TestSettledStartsTheCooldownAfterTheStreak(t *testing.T) {
	now := time.Date(2026, 7, 6, 12, 0, 0, 0, time.UTC)
	g := Guards{CooldownLosses: 2, CooldownSeconds: 60}
	e := Exposure{Active: 3}.Settled(100, -1, g, now)
	if e.LostToday != 100 || e.LostSession != 100 || e.Active != 2 || !e.CooldownUntil.IsZero() {
		t.Fatalf("after one loss: %+v", e)
	}
	if w := e.Settled(100, 1, g, now); w.LossStreak != 0 {
		t.Errorf("a win leaves the streak at %d", w.LossStreak)
	}
	e = e.Settled(100, -1, g, now)
	if !e.CooldownUntil.Equal(now.Add(time.Minute)) {
		t.Errorf("two losses in a row: cooldown until %v, want %v", e.CooldownUntil, now.Add(time.Minute))
	}
}
