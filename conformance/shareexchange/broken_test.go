package shareexchange_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
	"github.com/agentgames/conformance/reference/skeleton"
	"github.com/agentgames/conformance/spec"
)

// TestBrokenRespondersAreCaughtNamingTheRule runs the live runner over
// loopback against one broken responder per MUST rule.
func TestBrokenRespondersAreCaughtNamingTheRule(t *testing.T) {
	t.Parallel()
	cat, err := spec.Load("share-exchange")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cat.Rules {
		if r.Level != spec.Must || r.ForAgents() {
			continue // an agent's duty is audited by serve --audit, never a responder's
		}
		t.Run(r.ID, func(t *testing.T) {
			srv := httptest.NewServer(sxserver.NewBroken(skeleton.Config{Seed: 3, Now: time.Now}, r.ID))
			defer srv.Close()
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{shareexchange.Protocol()},
				Target: srv.URL + sxserver.BasePath, Rules: []string{r.ID}, Seed: 11, CaseDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Failed(r.ID) {
				for _, res := range rep.Results {
					t.Logf("%s: %s %s %s", res.Name, res.Status, res.FailedRule, res.Message)
				}
				t.Fatalf("a responder breaking %s was not caught", r.ID)
			}
		})
	}
}

// TestTamperCoverageIsRecorded: every platform MUST rule has its broken
// responder above (sxserver.NewBroken), and spec/share-exchange/tamper.json
// says so for `conformance rules --untampered`.
func TestTamperCoverageIsRecorded(t *testing.T) {
	t.Parallel()
	cat, err := spec.Load("share-exchange")
	if err != nil {
		t.Fatal(err)
	}
	tampered := map[string]bool{}
	for _, r := range cat.Rules {
		if r.Level == spec.Must && !r.ForAgents() {
			tampered[r.ID] = true
		}
	}
	harness.Record(t, "share-exchange", tampered, nil)
}
