package phantompress

import (
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// lastSettlement returns the last settlement the target revealed in the
// kit's shape. A target that published in another shape was held to the
// publish invariants when the publish came back (checkPublishInvariants);
// what only the exact settlement shows is unchecked on it.
func (w *world) lastSettlement() (*engine.Settlement, error) {
	if len(w.m.Settlements) == 0 && w.m.Published > 0 {
		return nil, verdict.Skipf("unchecked: the target's publish answers carry no settlement in the kit's event shape (PP-EVENTS); trust, status, case and AP were checked at each publish")
	}
	if len(w.m.Settlements) == 0 {
		return nil, verdict.Failf("PP-HIDE-REVEAL", "a settlement", "none", "")
	}
	return &w.m.Settlements[len(w.m.Settlements)-1], nil
}
