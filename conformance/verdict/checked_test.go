package verdict_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/verdict"
)

// TestTheUncheckedReasonDoesNotDependOnResultOrder: a merge of shards
// lists results shard by shard, so the reason given for an unchecked MUST
// rule must not depend on their order; an error still outranks a skip.
func TestTheUncheckedReasonDoesNotDependOnResultOrder(t *testing.T) {
	p := verdict.ProtocolInfo{Name: "toy", Rules: []verdict.RuleInfo{{ID: "R", Level: verdict.Must}}}
	skipB := verdict.Result{Protocol: "toy", Name: "b", Rules: []string{"R"}, Status: verdict.Skip, Message: "no clock"}
	skipA := verdict.Result{Protocol: "toy", Name: "a", Rules: []string{"R"}, Status: verdict.Skip, Message: "no clock"}
	broken := verdict.Result{Protocol: "toy", Name: "c", Rules: []string{"R"}, Status: verdict.Error, Message: "timeout"}
	reason := func(rs ...verdict.Result) string {
		_, _, unchecked := (&verdict.Report{Results: rs}).MustCoverage(p)
		if len(unchecked) != 1 {
			t.Fatalf("unchecked %v", unchecked)
		}
		return unchecked[0].Reason
	}
	assert.Equal(t, reason(skipA, skipB), reason(skipB, skipA))
	assert.Equal(t, "skip: no clock (a)", reason(skipB, skipA))
	assert.Equal(t, "error: timeout (c)", reason(skipA, broken, skipB))
	assert.Equal(t, "error: timeout (c)", reason(broken, skipB))
}
