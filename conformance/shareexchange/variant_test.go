package shareexchange_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// pullRules are the pull checks, SX-CODE-ORDER among them.
var pullRules = []string{"SX-RELEASE", "SX-STALE", "SX-NOT-HELD", "SX-SELF", "SX-UNLISTED", "SX-NOT-COMBINABLE",
	"SX-NOT-BROKER", "SX-BAD-REQUEST", "SX-CODE-ORDER"}

// otherOrder is a responder that checks the conditions in another order
// than the reference: a stale pull from the holder itself answers
// requester_is_holder, where the reference answers stale_round. Both
// conditions fail, so either code is right. With breakStale it also
// answers a stale pull of the share it holds (2) with not_held, a
// condition that does not hold: SX-STALE broken under a layout of codes
// that is otherwise faithful.
func otherOrder(breakStale bool) http.Handler {
	ref := sxserver.New(skeleton.Config{Seed: 3, Now: time.Now})
	req := func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if json.Unmarshal(body, &p) == nil && p["kind"] == nil {
			r.Header.Set("X-Pull", fmt.Sprintf("%v|%v|%v", p["requester"], p["agent_id"], p["share_index"]))
		}
		return body
	}
	resp := func(r *http.Request, status *int, m map[string]any) {
		if r.Header.Get("X-Pull") == "" || m["code"] != "stale_round" {
			return
		}
		parts := strings.SplitN(r.Header.Get("X-Pull"), "|", 3)
		requester, holder, share := parts[0], parts[1], parts[2]
		switch {
		case requester == holder:
			*status, m["code"], m["reason"] = 400, "requester_is_holder", "you cannot ask yourself"
		case breakStale && share == "2":
			*status, m["code"], m["reason"] = 404, "not_held", "no such share here"
		}
	}
	return harness.Wrap(ref, req, resp)
}

func runPulls(t *testing.T, h http.Handler, tags string) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{shareexchange.Protocol()},
		Target: srv.URL + sxserver.BasePath, Rules: pullRules, Tags: tags, Seed: 11, Checks: 40, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestAnotherOrderOfRefusalsFailsNothing: answering one of several
// failing conditions' codes is never a MUST failure, only the kit's
// order (SX-CODE-ORDER, a warning).
func TestAnotherOrderOfRefusalsFailsNothing(t *testing.T) {
	t.Parallel()
	rep := runPulls(t, otherOrder(false), "")
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
	}
}

// TestReferenceOrderNeverHidesAMustFailure: a refusal for a condition
// that does not hold fails its MUST rule even where the kit's order of
// codes is not followed: the order warning never stands in for it. The
// random pulls alone must find it (the feature's stale scenario would
// too).
func TestReferenceOrderNeverHidesAMustFailure(t *testing.T) {
	t.Parallel()
	rep := runPulls(t, otherOrder(true), "@property")
	if !rep.Failed("SX-STALE") || rep.ExitCode() != 1 {
		for _, r := range rep.Results {
			t.Logf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
		t.Fatal("a stale pull answered not_held for a held share was not failed under SX-STALE")
	}
}

// TestAWideFaithfulResponderFailsNoMustRule: the responder of otherOrder
// with every refusal's reason in other words and every answer re-encoded
// (keys in another order) fails no MUST rule over the whole run.
func TestAWideFaithfulResponderFailsNoMustRule(t *testing.T) {
	t.Parallel()
	h := harness.Responses(otherOrder(false), func(_ *http.Request, _ *int, m map[string]any) {
		if _, ok := m["reason"]; ok {
			m["reason"] = "not released by a faithful responder"
		}
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{shareexchange.Protocol()},
		Target: srv.URL + sxserver.BasePath, Seed: 11, Checks: 20}, 18)
}
