package shareexchange

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestGraceLapsedReleaseDependsOnTheClockNotTheRunner: a non-broker's
// pull released by grace_lapsed fails SX-NOT-BROKER while the board has
// been listed for less than the broker's 30 s grace, and is unchecked
// (skip) once the grace may have run out, as it may for a slow runner;
// the broker's release may then say grace_lapsed too.
func TestGraceLapsedReleaseDependsOnTheClockNotTheRunner(t *testing.T) {
	t.Parallel()
	clock := suite.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	w := &world{env: &suite.Env{Clock: clock}, rule: "SX-NOT-BROKER", hex: map[string]map[int]string{"me": {2: "ab"}}, mine: "me"}
	w.listedAt = clock.Now()
	w.Last = &driver.Response{Status: http.StatusOK}
	w.body = map[string]any{"ok": true, "code": "grace_lapsed", "share_hex": "ab", "protocol": "abp-share-exchange/1", "agent_id": "me", "share_index": 2.0}

	clock.Advance(20 * time.Second)
	var fail *verdict.Failure
	var skip *verdict.Skipped
	if err := w.refused(403, "not_broker"); !errors.As(err, &fail) || fail.RuleID != "SX-NOT-BROKER" {
		t.Errorf("20 s after listing: %v; want a fail", err)
	}
	if err := w.released("elected_broker"); err == nil {
		t.Error("20 s after listing a grace_lapsed release passed as the broker's")
	}

	clock.Advance(15 * time.Second)
	if err := w.refused(403, "not_broker"); !errors.As(err, &skip) {
		t.Errorf("35 s after listing: %v; want a skip", err)
	}
	if err := w.released("elected_broker"); err != nil {
		t.Errorf("35 s after listing the broker's grace_lapsed release: %v", err)
	}
}
