package server

import (
	"net"
	"testing"
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
		if got := forbiddenIP(net.ParseIP(host)); got != want {
			t.Errorf("forbiddenIP(%s) = %v, want %v", host, got, want)
		}
	}
	if err := refuseForbidden("tcp", "10.1.2.3:443", nil); err == nil {
		t.Error("the dialer's control let 10.1.2.3 through")
	}
	if err := refuseForbidden("tcp", "127.0.0.1:443", nil); err != nil {
		t.Errorf("the dialer's control refused loopback: %v", err)
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
