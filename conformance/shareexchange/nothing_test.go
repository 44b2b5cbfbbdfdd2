package shareexchange_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/conformance/suite"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// TestAResponderWithoutTheKitsSurfaceChecksNothing: a responder that
// answers PULLs in the convention's shape (so the preflight takes it for
// one) but serves neither the kit's discovery read nor its control
// surface (SX-CONTROL, a REFERENCE choice) lets no MUST check decide.
// That run warns once and skips the rest; it must exit 2 saying nothing
// was checked, not pass (it used to say "MUST rules checked: 0/17" and
// exit 0).
func TestAResponderWithoutTheKitsSurfaceChecksNothing(t *testing.T) {
	t.Parallel()
	ref := sxserver.New(suite.ReferenceConfig{Seed: 7})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || strings.Contains(r.URL.Path, "/control/") {
			http.NotFound(w, r)
			return
		}
		ref.ServeHTTP(w, r)
	}))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{shareexchange.Protocol()},
		Target: srv.URL + sxserver.BasePath, Seed: 7, Checks: 2, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.NotProtocol) > 0 || len(rep.Errors) > 0 {
		t.Fatalf("the preflight should take it for a responder: %v %v", rep.NotProtocol, rep.Errors)
	}
	if code := rep.ExitCode(); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	nothing := rep.NothingChecked()
	if len(nothing) != 1 || !strings.Contains(nothing[0], "share-exchange: none of its 17 MUST rules") {
		t.Errorf("NothingChecked = %q", nothing)
	}
}
