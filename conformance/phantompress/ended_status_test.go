package phantompress

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// renameFired calls the fired status "dismissed" wherever an answer shows
// a status: another name than the kit's (PP-STATE-VIEW, a REFERENCE
// choice) for the same ended run.
func renameFired(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, y := range x {
			if k == "status" && y == "fired" {
				x[k] = "dismissed"
			}
			renameFired(y)
		}
	case []any:
		for _, y := range x {
			renameFired(y)
		}
	}
}

// dismissedNotFired renames the fired status; with acceptsAfterEnd it also
// answers an action on the ended run 200 where it must be refused 409
// (PP-ERR-409-FINISHED).
func dismissedNotFired(acceptsAfterEnd bool) http.Handler {
	return harness.Responses(pp.New(suite.ReferenceConfig{Seed: 3}), func(r *http.Request, st *int, m map[string]any) {
		renameFired(m)
		if acceptsAfterEnd && *st == http.StatusConflict && strings.HasSuffix(r.URL.Path, "/action") {
			*st = http.StatusOK
		}
	})
}

// TestAnotherEndedStatusNameOnlyWarns: a run fired under another status
// name passes PP-SETTLE-FIRED, with a warning on the kit's name.
func TestAnotherEndedStatusNameOnlyWarns(t *testing.T) {
	t.Parallel()
	out, err := harness.Run(Protocol, harness.Case{Name: "dismissed", Rule: "PP-SETTLE-FIRED", Target: dismissedNotFired(false)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Report.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
	}
}

// TestAnotherEndedStatusNameNeverHidesAnOpenRun: the name the kit only
// warns on does not end the check before its MUST condition: a fired run
// that still takes actions fails (PP-ERR-409-FINISHED, the refusal the
// scenario's last step demands).
func TestAnotherEndedStatusNameNeverHidesAnOpenRun(t *testing.T) {
	t.Parallel()
	if err := harness.Check(Protocol, harness.Case{Name: "dismissed and still open", Rule: "PP-ERR-409-FINISHED",
		Rules: []string{"PP-SETTLE-FIRED"}, Target: dismissedNotFired(true)}); err != nil {
		t.Error(err)
	}
}
