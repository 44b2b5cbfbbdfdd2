// Package nodetest finds Node.js for the kit's tests that play the
// README's JavaScript agents (examples/), so each such test skips the same
// way on a machine without it.
package nodetest

import (
	"os/exec"
	"testing"
)

// WithWebSocket returns node and the flags that give it a global WebSocket
// (built in from Node 22, behind a flag in 20 and 21), as the start of a
// command line; it skips t when node is missing or has no WebSocket.
func WithWebSocket(t testing.TB) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	for _, flags := range [][]string{nil, {"--experimental-websocket"}} {
		args := append(append([]string{}, flags...), "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)")
		if exec.Command(node, args...).Run() == nil {
			return append([]string{node}, flags...)
		}
	}
	t.Skip("this node has no WebSocket")
	return nil
}
