package cli

import (
	"net"
	"testing"

	"github.com/agentgames/conformance/conformance/protocols"
)

// TestServePrintsEachProtocolsOwnURL: the gateway as its ws:// socket, the
// push agent as its endpoint.url, the others at their base path.
func TestServePrintsEachProtocolsOwnURL(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	want := map[string]string{
		"pyyol-gateway": "ws://127.0.0.1:8080/v1/agent/connect",
		"pyyol-push":    "http://127.0.0.1:8080/pyyol-agent/turn",
		"iyra":          "http://127.0.0.1:8080/api/v5",
	}
	for _, p := range protocols.All() {
		if w, ok := want[p.Name]; ok && servedURL(p, addr) != w {
			t.Errorf("%s: %s, want %s", p.Name, servedURL(p, addr), w)
		}
	}
}
