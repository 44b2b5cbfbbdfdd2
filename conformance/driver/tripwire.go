package driver

import (
	"net"
	"net/url"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Tripwire is an address the runner names to a target that must never call
// it: it accepts and at once closes every connection, counting them. A
// count above zero means the target connected, whatever it then sent (a
// TLS hello, a plain request or nothing); the runner never answers, so a
// target that ignores its own guard learns nothing from the address.
type Tripwire struct {
	ln   net.Listener
	url  string
	mu   sync.Mutex
	hits int
	done chan struct{}
}

// NewTripwire listens on addr (HOST:PORT; an IPv6 link-local host carries
// its zone, "[fe80::1%eth0]:0").
func NewTripwire(addr string) (*Tripwire, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, verdict.Errorf("tripwire listener on %s: %v", addr, err)
	}
	t := &Tripwire{ln: ln, url: hostURL("https", addr, ln.Addr()), done: make(chan struct{})}
	go t.accept()
	return t, nil
}

// hostURL is scheme://HOST:PORT for a listener asked for at addr: the
// host as asked (a listener's own address drops an IPv6 zone), the port it
// got, the zone escaped as URLs spell it (%25).
func hostURL(scheme, addr string, got net.Addr) string {
	host, _, err := net.SplitHostPort(addr)
	_, port, err2 := net.SplitHostPort(got.String())
	if err != nil || err2 != nil || host == "" {
		return (&url.URL{Scheme: scheme, Host: got.String()}).String()
	}
	return (&url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)}).String()
}

// accept counts and closes connections until Close.
func (t *Tripwire) accept() {
	defer close(t.done)
	for {
		c, err := t.ln.Accept()
		if err != nil {
			return
		}
		t.mu.Lock()
		t.hits++
		t.mu.Unlock()
		c.Close()
	}
}

// URL is the tripwire's base URL, https:// so that a platform that calls
// only TLS endpoints has no scheme to refuse it for: only its address
// guard can.
func (t *Tripwire) URL() string { return t.url }

// Hits is how many connections reached the tripwire so far.
func (t *Tripwire) Hits() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hits
}

// Close stops listening; Hits still reads the final count.
func (t *Tripwire) Close() error {
	err := t.ln.Close()
	<-t.done
	return err
}
