package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// notServed is what a missing route left unchecked in one protocol: the
// routes in the order the run met them, and how many checks skipped.
type notServed struct {
	routes []string
	checks int
}

// notServedByProtocol folds the not-served skips of a report by protocol.
func notServedByProtocol(r *verdict.Report) map[string]*notServed {
	out := map[string]*notServed{}
	for _, res := range r.Results {
		if res.Status != verdict.Skip {
			continue
		}
		route, ok := verdict.NotServedRoute(res.Message)
		if !ok {
			continue
		}
		ns := out[res.Protocol]
		if ns == nil {
			ns = &notServed{}
			out[res.Protocol] = ns
		}
		ns.checks++
		if !containsString(ns.routes, route) {
			ns.routes = append(ns.routes, route)
		}
	}
	return out
}

// writeNotServed prints one line per protocol for the checks that skipped
// because the target does not serve a route they need, naming the routes
// once: a partial deployment (a gateway without its HTTP menu) reads as
// one line, not as a skip message per check.
func writeNotServed(w io.Writer, r *verdict.Report) {
	by := notServedByProtocol(r)
	for _, name := range protocolNames(r) {
		ns := by[name]
		if ns == nil {
			continue
		}
		fmt.Fprintf(w, "\nNOT SERVED: %s: %s unchecked, the target does not serve %s (a missing route is not a refusal)\n",
			name, plural(ns.checks, "check"), strings.Join(ns.routes, ", "))
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
