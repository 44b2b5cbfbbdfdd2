package phantompress

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRetryAfterReachesJSTResetAtEveryHour pins PP-QUOTA-RESET's judge of
// Retry-After at fixed times on both sides of 15:00 UTC (00:00 JST): a day
// counted in UTC is refused whether UTC's midnight comes before the JST
// one or after it, and the exact reset, a jitter of minutes and the Date
// header's lost second are accepted.
func TestRetryAfterReachesJSTResetAtEveryHour(t *testing.T) {
	untilUTCMidnight := func(now time.Time) int {
		next := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
		return int(next.Sub(now).Seconds()) + 1
	}
	untilJSTMidnight := func(now time.Time) int { return int(nextJSTMidnight(now).Sub(now).Seconds()) }
	for _, hour := range []int{1, 10, 14, 16, 20, 23} {
		now := time.Date(2026, 12, 6, hour, 25, 0, 0, time.UTC)
		jst := untilJSTMidnight(now)
		assert.True(t, retryAfterReachesJSTReset(now, jst), "%02d:25 UTC: the exact reset", hour)
		assert.True(t, retryAfterReachesJSTReset(now, jst-1), "%02d:25 UTC: a second short (the Date header's)", hour)
		assert.True(t, retryAfterReachesJSTReset(now, jst+10*60), "%02d:25 UTC: ten minutes of jitter", hour)
		assert.False(t, retryAfterReachesJSTReset(now, untilUTCMidnight(now)), "%02d:25 UTC: a day counted in UTC", hour)
		assert.False(t, retryAfterReachesJSTReset(now, jst-3600), "%02d:25 UTC: an hour early", hour)
		assert.False(t, retryAfterReachesJSTReset(now, jst+3600), "%02d:25 UTC: an hour late", hour)
	}
}
