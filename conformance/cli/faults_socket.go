package cli

import (
	"strconv"

	"github.com/agentgames/conformance/reference/faults"
)

// faultStatus prints a fault's documented HTTP status, or "ws" for one
// that happens inside a WebSocket (a dropped socket, a late turn), which
// has none.
func faultStatus(f faults.Fault) string {
	if f.Applies == nil {
		return "ws"
	}
	return strconv.Itoa(f.Status)
}
