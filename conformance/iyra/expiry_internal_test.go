package iyra

import (
	"errors"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestRefusalAfterExpiryChecksNothing: a refused valid proof is a skip once
// its challenge's expires_at is (nearly) past on the run's clock, as for a
// runner too slow to verify in time; well before it, refusedLate leaves
// the verdict to IYRA-PROOF-POW.
func TestRefusalAfterExpiryChecksNothing(t *testing.T) {
	t.Parallel()
	clock := suite.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := &client{env: &suite.Env{Clock: clock}}
	a := &acceptance{ExpiresAt: clock.Now().Add(10 * time.Minute).Format(time.RFC3339)}
	if err := c.refusedLate(a); err != nil {
		t.Errorf("ten minutes before expiry: %v; want the refusal judged", err)
	}
	clock.Advance(10*time.Minute - time.Second)
	var skip *verdict.Skipped
	if err := c.refusedLate(a); !errors.As(err, &skip) {
		t.Errorf("a second before expiry: %v; want a skip", err)
	}
}
