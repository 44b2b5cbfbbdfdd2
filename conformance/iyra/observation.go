package iyra

import (
	"sort"

	"github.com/agentgames/conformance/conformance/verdict"
)

// keys returns an object's keys sorted.
func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ok2xx decodes a 2xx answer into a generic object.
func (w *world) ok2xx() (map[string]any, error) {
	if err := w.NeedLast(); err != nil {
		return nil, err
	}
	if err := w.refusedBusy(); err != nil {
		return nil, err
	}
	if w.Last.Status/100 != 2 {
		return nil, verdict.Failf(w.rule(), "a 2xx answer", w.Last.Status, "%s", clip(w.Last.Body))
	}
	return jsonObject("", w.Last)
}
