package forge

import (
	"net/http"

	"github.com/agentgames/conformance/conformance/verdict"
)

// refusedTaken judges a nickname conflict: 409 is the contract's status
// for a rename and the kit's for a registration; the code is the contract's.
func (w *world) refusedTaken(rule string) func() error {
	return func() error {
		if err := w.NeedLast(); err != nil {
			return err
		}
		if w.Last.Status/100 != 4 || code(w.Last) != "NICKNAME_TAKEN" {
			return verdict.Failf(rule, "a refusal with code NICKNAME_TAKEN", w.Last.Status, "%s", w.env.HTTP.Secrets().Clip(w.Last.Body))
		}
		if w.Last.Status != http.StatusConflict {
			w.note("FORGE-REF-ERROR-CODES", 409, w.Last.Status, "a taken nickname")
		}
		if rule == "FORGE-NICKNAME-UNIQUE" {
			return w.paddedJudged()
		}
		return nil
	}
}
