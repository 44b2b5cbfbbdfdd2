package driver

// A missing route is not a refusal. A 404, 405 or 501 can mean "no such
// thing" (an unknown id, a method the contract forbids) or "nothing is
// mounted here" (a deployment without that part of the API, a proxy in
// front of the wrong service). Read as a refusal, the second kind would
// let a check of "the platform refuses bad input" pass against a target
// that never saw the input; read as a failure, it would fail a partial
// deployment for a route it does not claim to serve. So the driver hands
// such an answer to the step only when the route is shown to be served;
// otherwise the request ends in a not-served skip (verdict.NotServed)
// naming the route.

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// RouteInfo is what a Validator may also know about the route a request
// hits: its documented name, which statuses its operation documents and
// whether a body has the operation's documented error shape. The OpenAPI
// validator knows all three; Templates knows only names.
type RouteInfo interface {
	// Route names the documented operation the request hits, as "METHOD
	// /path/{param}" under the target's base path; ok is false when none does.
	Route(method, path string) (name string, ok bool)
	// Documents reports whether the operation documents exactly status
	// (a 405 the contract lists for that method, say).
	Documents(method, path string, status int) bool
	// Shaped reports whether body matches the operation's documented body
	// for status, and that body's schema requires fields: the target's own
	// error shape, which no generic "not found" page has.
	Shaped(method, path string, status int, body []byte) bool
}

// Templates names the routes of an API no OpenAPI document describes
// (Pyyol's platform API beside its gateway) so that every id of one route
// shares its evidence. A template is "METHOD /path/{param}" relative to
// wherever the API is mounted: it matches a path whose last segments it
// matches, a "{...}" segment matching any one segment. It validates
// nothing, documents no status and knows no error shape.
type Templates []string

// Validate accepts every answer: Templates only names routes.
func (t Templates) Validate(*http.Request, int, http.Header, []byte, func() (any, error)) error {
	return nil
}

// Route names the longest template that matches, under the path's own
// mount point: "POST /v1/agents/{agent}/manifest/{manifest}/verify".
func (t Templates) Route(method, path string) (string, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	best, found := 0, ""
	for _, tpl := range t {
		m, p, _ := strings.Cut(tpl, " ")
		want := strings.Split(strings.Trim(p, "/"), "/")
		if m != method || len(want) > len(segs) || len(want) <= best {
			continue
		}
		mount := segs[:len(segs)-len(want)]
		if segmentsMatch(want, segs[len(mount):]) {
			best, found = len(want), method+" /"+strings.Join(append(append([]string(nil), mount...), want...), "/")
		}
	}
	return found, found != ""
}

// Documents is false: a template documents no status.
func (Templates) Documents(string, string, int) bool { return false }

// Shaped is false: a template knows no error shape.
func (Templates) Shaped(string, string, int, []byte) bool { return false }

// segmentsMatch compares a template's segments with as many of a path's.
func segmentsMatch(tpl, segs []string) bool {
	for i, s := range tpl {
		if !(strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")) && s != segs[i] {
			return false
		}
	}
	return true
}

// IsMissing reports whether status may mean that nothing serves the route:
// 404 Not Found, 405 Method Not Allowed, 501 Not Implemented.
func IsMissing(status int) bool {
	return status == http.StatusNotFound || status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented
}

// showsServed reports whether an answer proves that something serves the
// route: any answer but a missing-route status, a redirect, or a "cannot
// serve now" one (429, 5xx), which a proxy in front may give for anything.
func showsServed(status int) bool {
	return status >= 200 && status < 300 || status >= 400 && status < 500 && !IsMissing(status) && status != http.StatusTooManyRequests
}

// routeName names the route of hreq for evidence and messages: the
// documented template where the driver's validator knows one, else the
// method and the path without its query.
func (d *HTTP) routeName(hreq *http.Request) string {
	if ri, ok := d.opts.Validator.(RouteInfo); ok {
		if name, ok := ri.Route(hreq.Method, hreq.URL.Path); ok {
			return name
		}
	}
	return hreq.Method + " " + hreq.URL.Path
}

// notServed decides what a missing-route status means for req. It returns
// nil when the step should judge the answer: the step put the route itself
// under test (RouteUnderTest), the contract documents this status for the
// operation (a 405 or 501, or one the step allows), or the route is shown
// to be served (it answered this scenario otherwise, or the answer has the
// protocol's documented error shape). Otherwise it returns the not-served
// skip. Any other answer is kept as evidence that its route is served; it
// is named only when a missing answer asks, so an ordinary request pays
// one map insert.
func (d *HTTP) notServed(req Request, hreq *http.Request, resp *Response) error {
	if !IsMissing(resp.Status) {
		if showsServed(resp.Status) {
			d.rec.markServed(hreq.Method + " " + hreq.URL.Path)
		}
		return nil
	}
	if req.RouteUnderTest {
		return nil
	}
	name := d.routeName(hreq)
	if d.shownServed(name) {
		return nil
	}
	ri, _ := d.opts.Validator.(RouteInfo)
	if ri != nil && ri.Shaped(hreq.Method, hreq.URL.Path, resp.Status, resp.Body) {
		return nil
	}
	if resp.Status != http.StatusNotFound && (allowed(req.Allow, resp.Status) ||
		ri != nil && ri.Documents(hreq.Method, hreq.URL.Path, resp.Status)) {
		return nil
	}
	return verdict.NotServed(name, resp.Status)
}

// shownServed reports whether a request of this scenario that answered
// otherwise hit the route named name.
func (d *HTTP) shownServed(name string) bool {
	for _, seen := range d.rec.servedRequests() {
		method, path, _ := strings.Cut(seen, " ")
		if d.routeName(&http.Request{Method: method, URL: &url.URL{Path: path}}) == name {
			return true
		}
	}
	return false
}

// markServed notes a request ("METHOD /path") that answered this scenario
// with something other than a missing-route status.
func (r *Recorder) markServed(request string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.routes == nil {
		r.routes = map[string]bool{}
	}
	r.routes[request] = true
}

// servedRequests are the requests markServed noted.
func (r *Recorder) servedRequests() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.routes))
	for k := range r.routes {
		out = append(out, k)
	}
	return out
}
