package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentgames/conformance/spec"
)

// TestTheRateLimitIsStatedOnce: the catalogue's REFERENCE choice (and so
// the README that cites it) states the limiter's own numbers, so the rate
// limit has one value, in the code, and one description.
func TestTheRateLimitIsStatedOnce(t *testing.T) {
	cat, err := spec.Load("forge")
	if err != nil {
		t.Fatal(err)
	}
	r, ok := cat.Rule("FORGE-REF-BUDGETS")
	if !ok {
		t.Fatal("no FORGE-REF-BUDGETS")
	}
	want := fmt.Sprintf("%d requests refilled at %g a second", burst, refill)
	if !strings.Contains(r.Choice, want) {
		t.Errorf("FORGE-REF-BUDGETS says %q, the limiter does %q", r.Choice, want)
	}
}
