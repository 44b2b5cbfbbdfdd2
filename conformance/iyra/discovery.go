package iyra

import (
	"context"
	"net/http"
	"slices"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// get returns a When step reading path, with the Bearer key when authed.
func (w *world) get(path string, authed bool) func(context.Context) error {
	return func(ctx context.Context) error {
		// The URLs the contract publishes must answer (IYRA-PUBLISHED-URLS):
		// there a 404 is a failure, elsewhere a route not served.
		req := driver.Request{Method: http.MethodGet, Path: path, RouteUnderTest: slices.Contains(w.Tags, "IYRA-PUBLISHED-URLS")}
		if authed {
			req = w.authed(req)
		}
		return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
	}
}

// ok200 decodes a 200 answer into a generic object for the scenario rule.
func (w *world) ok200() (map[string]any, error) {
	if err := w.NeedLast(); err != nil {
		return nil, err
	}
	if w.Last.Status != http.StatusOK {
		return nil, verdict.Failf(w.rule(), 200, w.Last.Status, "%s", clip(w.Last.Body))
	}
	return jsonObject("", w.Last)
}

// at walks a path of object keys.
func at(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[k]
	}
	return cur
}

// str reads a JSON string value, "" when absent or not a string.
func str(v any) string {
	s, _ := v.(string)
	return s
}

// contractStates checks a gameplay contract names every declared action
// type, an objective and limits; a gap breaks rule.
func contractStates(rule string, c map[string]any, body []byte) error {
	types, _ := at(c, "play", "legal_actions").([]any)
	var names []string
	for _, t := range types {
		names = append(names, str(t))
	}
	for _, want := range iyra.ActionTypes {
		if !slices.Contains(names, want) {
			return verdict.Failf(rule, "play.legal_actions listing "+want, names, "gameplay_contract")
		}
	}
	if at(c, "objective") == nil || at(c, "limits") == nil {
		return verdict.Failf(rule, "objective and limits in the gameplay_contract", clip(body), "gameplay_contract")
	}
	return nil
}
