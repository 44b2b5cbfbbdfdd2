package driver

import (
	"net/http"
	"net/url"

	"github.com/agentgames/conformance/conformance/verdict"
)

// withoutRedirects returns a copy of c (or a fresh client) that never
// follows a redirect. Go's default policy compares host names, not ports or
// schemes, so a target answering 307 to another port of the same host would
// receive every Authorization header and every write body again. No
// contract documents a redirect; the driver reports one as a harness error.
func withoutRedirects(c *http.Client) *http.Client {
	out := &http.Client{}
	if c != nil {
		copied := *c
		out = &copied
	}
	out.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return out
}

// redirectLocation returns the Location of a 3xx answer, or "" when resp is
// not a redirect (a 304 without Location is an ordinary answer).
func redirectLocation(resp *Response) string {
	if resp.Status < 300 || resp.Status > 399 {
		return ""
	}
	return resp.Header.Get("Location")
}

// sameOrigin refuses a request whose URL left the base URL's scheme and
// host, whatever a target-supplied link appended to the base made of it:
// keys go only to the target's own origin.
func sameOrigin(base string, u *url.URL) error {
	b, err := url.Parse(base)
	if err != nil || b.Scheme != u.Scheme || b.Host != u.Host {
		return verdict.Errorf("refusing to send to %s://%s: not the target's origin", u.Scheme, u.Host)
	}
	return nil
}
