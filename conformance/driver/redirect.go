package driver

import "net/http"

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
