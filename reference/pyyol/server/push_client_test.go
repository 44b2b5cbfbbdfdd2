package server

import (
	"net"
	"testing"

	"github.com/agentgames/conformance/reference/skeleton"
)

// TestForbiddenIPs: the push client refuses private, link-local,
// metadata, CGNAT, multicast and unspecified addresses, and calls
// loopback (the dev opt-in) and public ones.
func TestForbiddenIPs(t *testing.T) {
	for host, want := range map[string]bool{
		"10.0.0.1": true, "172.16.5.4": true, "192.168.1.1": true, "169.254.169.254": true, "100.64.0.1": true,
		"224.0.0.1": true, "0.0.0.0": true, "fd00::1": true, "fe80::1": true, "::": true, "ff02::1": true,
		"127.0.0.1": false, "::1": false, "8.8.8.8": false, "2001:4860:4860::8888": false,
	} {
		if got := forbiddenIP(net.ParseIP(host), false); got != want {
			t.Errorf("forbiddenIP(%s) = %v, want %v", host, got, want)
		}
	}
	dev := New(Options{})
	if err := dev.refuseForbidden("tcp", "10.1.2.3:443", nil); err == nil {
		t.Error("the dialer's control let 10.1.2.3 through")
	}
	if err := dev.refuseForbidden("tcp", "127.0.0.1:443", nil); err != nil {
		t.Errorf("the dialer's control refused loopback: %v", err)
	}
}

// TestForbiddenHostReadsZonesAndProduction: an IPv6 link-local host with
// its zone is still refused, and a production platform refuses loopback
// and localhost unless tampered to call them.
func TestForbiddenHostReadsZonesAndProduction(t *testing.T) {
	dev, prod := New(Options{}), New(Options{Config: skeleton.Config{Production: true}})
	tampered := New(Options{Config: skeleton.Config{Production: true}, Tamper: CallsLoopback})
	for _, c := range []struct {
		g    *Gateway
		host string
		want bool
	}{
		{dev, "fe80::fc:ff:fe00:1%eth0", true},
		{dev, "[fe80::1%25eth0]", true},
		{dev, "127.0.0.1", false},
		{dev, "localhost", false},
		{prod, "127.0.0.1", true},
		{prod, "::1", true},
		{prod, "LocalHost", true},
		{prod, "203.0.113.9", false},
		{tampered, "127.0.0.1", false},
		{tampered, "10.0.0.1", true},
		{New(Options{Tamper: AcceptsPrivateEndpoints}), "10.0.0.1", false},
	} {
		if got := c.g.forbiddenHost(c.host); got != c.want {
			t.Errorf("forbiddenHost(%s) production=%v tamper=%q: %v, want %v", c.host, c.g.opts.Production, c.g.opts.Tamper, got, c.want)
		}
	}
	if err := prod.refuseForbidden("tcp", "127.0.0.1:443", nil); err == nil {
		t.Error("a production platform's dialer let loopback through")
	}
}

// TestSiblingsDir: the siblings live in dir(endpoint.url), whatever the
// turn handler's name.
func TestSiblingsDir(t *testing.T) {
	for url, want := range map[string]string{
		"https://you.example.com/turn":          "https://you.example.com",
		"https://you.example.com/agent/play":    "https://you.example.com/agent",
		"http://127.0.0.1:9/kit-agent/turn?x=1": "http://127.0.0.1:9/kit-agent",
	} {
		if got := siblingsDir(url); got != want {
			t.Errorf("siblingsDir(%s) = %s, want %s", url, got, want)
		}
	}
}
