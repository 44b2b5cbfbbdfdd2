package pyyol_test

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// TestUtilityRentCaughtAcrossSeeds measures on how many of 20 gateway
// seeds the live PYYOL-MONO-RENT run catches a flat utility rent: a
// fee ignoring the dice (MonopolyUtilityFee), and 4x the dice however
// many utilities the owner holds (MonopolyUtilityFlat, which shows only
// once one owner holds both). Opt-in (CONFORMANCE_SEEDS=1): 40 runs.
func TestUtilityRentCaughtAcrossSeeds(t *testing.T) {
	if os.Getenv("CONFORMANCE_SEEDS") == "" {
		t.Skip("set CONFORMANCE_SEEDS=1 to measure")
	}
	for _, tamper := range []server.Tamper{server.MonopolyUtilityFee, server.MonopolyUtilityFlat} {
		t.Run(string(tamper), func(t *testing.T) { utilityAcrossSeeds(t, tamper) })
	}
}

func utilityAcrossSeeds(t *testing.T, tamper server.Tamper) {
	caught := 0
	for seed := int64(1); seed <= 20; seed++ {
		srv := httptest.NewServer(server.New(server.Options{Config: skeleton.Config{Seed: seed}, Tamper: tamper, TurnTimeout: 10e9}))
		rep := runLive(t, pyyol.Gateway(), srv.URL, "PYYOL-MONO-RENT", gatewaySettings.With("turn-timeout", "10s"))
		srv.Close()
		if rep.Failed("PYYOL-MONO-RENT") {
			caught++
		}
		t.Logf("seed %d: caught=%v", seed, rep.Failed("PYYOL-MONO-RENT"))
	}
	t.Logf("caught on %d of 20 seeds", caught)
	if caught < 20 {
		t.Errorf("a flat utility fee was caught on %d of 20 seeds", caught)
	}
}
