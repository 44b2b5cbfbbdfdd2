package phantompress

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/agentgames/conformance/conformance/verdict"
)

// visibility sets the run's visibility and checks the kit's body was taken
// (PP-WIRE-BODIES).
func (w *world) visibility(ctx context.Context, v string) error {
	if _, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/visibility", w.me.Key, map[string]string{"visibility": v}, nil); err != nil {
		return err
	}
	return w.wireBody("visibility")
}

type leaderEntry struct {
	Rank  int `json:"rank"`
	Agent struct {
		ID string `json:"id"`
	} `json:"agent"`
	Score int    `json:"score"`
	RunID string `json:"run_id"`
}

func leaderEntries(body []byte) []leaderEntry {
	var l struct {
		Entries []leaderEntry `json:"entries"`
	}
	json.Unmarshal(body, &l)
	return l.Entries
}

// wireBody turns a 4xx answer to one of the kit's own request bodies
// (extend, visibility, review: the seed gives no body) into a warning under
// PP-WIRE-BODIES: the target may simply expect another body.
func (w *world) wireBody(what string) error {
	if w.Status() >= 200 && w.Status() < 300 {
		return nil
	}
	if w.Status() >= 400 && w.Status() < 500 && w.Status() != http.StatusUnauthorized && w.Status() != http.StatusNotFound {
		return verdict.Failf("PP-WIRE-BODIES", "2xx for the kit's "+what+" body", w.Status(), "%s", clip(w.Body()))
	}
	return verdict.Failf("PP-WIRE-BODIES", "2xx", w.Status(), "%s: %s", what, clip(w.Body()))
}
