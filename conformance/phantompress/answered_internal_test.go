package phantompress

import (
	"net/http"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
)

// TestAnsweredAtIsTheTargetsTime: against a live target the time a 429
// was answered is its Date header, however long ago the runner read it;
// the embedded reference's clock wins when the run holds one.
func TestAnsweredAtIsTheTargetsTime(t *testing.T) {
	t.Parallel()
	then := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	h := http.Header{"Date": []string{then.Format(http.TimeFormat)}}
	if got := answeredAt(nil, h); !got.Equal(then) {
		t.Errorf("live: %v; want the Date %v", got, then)
	}
	clock := suite.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if got := answeredAt(clock, h); !got.Equal(clock.Now()) {
		t.Errorf("embedded: %v; want the run's clock %v", got, clock.Now())
	}
	if got := answeredAt(nil, http.Header{}); time.Since(got) > time.Minute {
		t.Errorf("no Date: %v; want the runner's clock", got)
	}
}
