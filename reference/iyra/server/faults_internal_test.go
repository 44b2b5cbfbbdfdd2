package server

import (
	"testing"
	"time"
)

// TestRetryAtNeverComesBeforeRetryAfterSeconds: the whole second retry_at
// names is never earlier than retry_after_seconds from the answer.
func TestRetryAtNeverComesBeforeRetryAfterSeconds(t *testing.T) {
	base := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for _, frac := range []time.Duration{0, time.Millisecond, 500 * time.Millisecond, 950 * time.Millisecond, 999 * time.Millisecond} {
		now := base.Add(frac)
		got, err := time.Parse(time.RFC3339, retryAt(now).Format(time.RFC3339))
		if err != nil || got.Before(now.Add(rateLimitSeconds*time.Second)) || got.Sub(now) >= (rateLimitSeconds+1)*time.Second {
			t.Errorf("answered at %v: retry_at %v (%v)", now, got, err)
		}
	}
}
