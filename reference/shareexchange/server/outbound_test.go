package server

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sx "github.com/agentgames/conformance/reference/shareexchange"
)

func TestBlockedAddresses(t *testing.T) {
	for _, a := range []string{"127.0.0.1", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "fe80::1", "0.0.0.0", "100.64.0.1", "fd00:ec2::254", "::ffff:127.0.0.1"} {
		assert.True(t, Blocked(netip.MustParseAddr(a)), a)
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "2606:4700::1111"} {
		assert.False(t, Blocked(netip.MustParseAddr(a)), a)
	}
}

// TestOutboundCallsRefuseLoopbackUnlessAllowed pulls from a responder on
// loopback: refused by default, answered with allowPrivate.
func TestOutboundCallsRefuseLoopbackUnlessAllowed(t *testing.T) {
	srv := httptest.NewServer(&Responder{})
	defer srv.Close()
	p := sx.Pull{Protocol: sx.Protocol, Requester: "a", AgentID: "h", ShareIndex: 2}
	_, _, err := Collect(context.Background(), Client(false, time.Second), srv.URL, p)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrPrivateAddress), err)
	_, a, err := Collect(context.Background(), Client(true, time.Second), srv.URL, p)
	require.NoError(t, err)
	assert.Equal(t, 404, a.Status, "the responder answers for nobody")
	_, _, err = Collect(context.Background(), Client(true, time.Second), "mailto:h@example.com", p)
	assert.Error(t, err, "a non-http contact cannot be pulled from")
}
