package skeleton

import (
	"net"
	"net/url"
)

// LoopbackURL reports a URL whose host is this machine's loopback
// (localhost or a loopback address). The reference servers use it for
// their development opt-ins (a notify_url they may call with a
// self-signed certificate), the runner for a target that can reach its
// loopback listeners; one definition keeps both readings the same.
func LoopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}
