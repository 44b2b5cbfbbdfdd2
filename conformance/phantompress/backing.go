package phantompress

import (
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// silentOn reports whether an observed source takes no stance on question q.
func (w *world) silentOn(src, q string) bool {
	s, ok := w.m.observedSource(src)
	if !ok {
		return false
	}
	for _, qq := range w.m.State.Case.Questions {
		if qq.ID == q {
			return !engine.Backs(s, qq.Claim, engine.True) && !engine.Backs(s, qq.Claim, engine.False)
		}
	}
	return false
}
