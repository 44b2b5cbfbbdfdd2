package driver_test

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
)

func TestTripwireCountsEveryConnectionAndAnswersNone(t *testing.T) {
	tw, err := driver.NewTripwire("127.0.0.1:0")
	require.NoError(t, err)
	defer tw.Close()
	assert.Equal(t, 0, tw.Hits())
	client := &http.Client{Timeout: 2 * time.Second}
	_, err = client.Get(strings.Replace(tw.URL(), "https://", "http://", 1) + "/health")
	assert.Error(t, err, "the tripwire answers nothing")
	c, err := net.Dial("tcp", strings.TrimPrefix(tw.URL(), "https://"))
	require.NoError(t, err)
	c.Close()
	require.Eventually(t, func() bool { return tw.Hits() == 2 }, 2*time.Second, 10*time.Millisecond)
	require.NoError(t, tw.Close())
	assert.Equal(t, 2, tw.Hits(), "the count survives Close")
}

func TestTripwireURLEscapesAnIPv6Zone(t *testing.T) {
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok || n.IP.To4() != nil || !n.IP.IsLinkLocalUnicast() {
				continue
			}
			tw, err := driver.NewTripwire("[" + n.IP.String() + "%" + ifc.Name + "]:0")
			if err != nil {
				continue
			}
			defer tw.Close()
			assert.Contains(t, tw.URL(), "%25"+ifc.Name+"]:", "a zone in a URL is spelled %%25")
			return
		}
	}
	t.Skip("this machine has no IPv6 link-local address")
}
