package pyyol

import (
	"net"
	"strings"
)

// addressClasses are the forbidden address classes the SSRF probes name,
// each with the test a candidate address of this machine passes
// (PYYOL-PLAT-SSRF: "private, loopback, link-local, or metadata IPs").
var addressClasses = map[string]func(ip net.IP) bool{
	"private IPv4":      func(ip net.IP) bool { return ip.To4() != nil && ip.IsPrivate() },
	"unique-local IPv6": func(ip net.IP) bool { return ip.To4() == nil && ip.IsPrivate() },
	"link-local IPv4":   func(ip net.IP) bool { return ip.To4() != nil && ip.IsLinkLocalUnicast() },
	"link-local IPv6":   func(ip net.IP) bool { return ip.To4() == nil && ip.IsLinkLocalUnicast() },
	"loopback":          func(ip net.IP) bool { return ip.To4() != nil && ip.IsLoopback() },
}

// ownAddress finds an address of class held by one of this machine's
// interfaces, as a host to listen on (an IPv6 link-local one with its
// zone): the probes name only the runner's own addresses, never a third
// party's. ok is false when the class is unknown or no interface holds one.
func ownAddress(class string) (host string, ok bool) {
	in, known := addressClasses[class]
	ifaces, err := net.Interfaces()
	if !known || err != nil {
		return "", false
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			n, isNet := a.(*net.IPNet)
			if !isNet || !in(n.IP) {
				continue
			}
			if n.IP.To4() == nil && n.IP.IsLinkLocalUnicast() {
				return n.IP.String() + "%" + ifc.Name, true
			}
			return n.IP.String(), true
		}
	}
	return "", false
}

// hostOnly strips an IPv6 zone, for messages.
func hostOnly(host string) string {
	h, _, _ := strings.Cut(host, "%")
	return h
}
