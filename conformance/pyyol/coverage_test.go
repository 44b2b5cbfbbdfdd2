package pyyol_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/spec"
	"github.com/agentgames/conformance/vectors"
)

// notLiveCheckable are the MUST rules no live run can catch a target
// breaking, with the reason.
// None today: PYYOL-SIGN-CONSTANT-TIME's timing is not decided live, but
// a compare that stops short of the last character is (ComparesEarlyExit).
var notLiveCheckable = map[string]string{}

// TestEveryLiveMustRuleHasATamperTest: each MUST rule is broken by one of
// the tamper targets, or is listed as not checkable live with a reason.
func TestEveryLiveMustRuleHasATamperTest(t *testing.T) {
	t.Parallel()
	cat, err := spec.Load("pyyol")
	if err != nil {
		t.Fatal(err)
	}
	tampered := map[string]bool{}
	for _, c := range brokenGateways() {
		tampered[c.rule] = true
	}
	for _, c := range append(brokenMonopolyGateways(), brokenMonopolyDeepGateways()...) {
		tampered[c.rule] = true
	}
	for _, c := range brokenAgents() {
		tampered[c.rule] = true
	}
	for _, c := range brokenPlatforms() {
		tampered[c.rule] = true
	}
	for _, c := range brokenMafiaGateways() {
		tampered[c.rule] = true
	}
	for _, c := range brokenMonopolyAgents() {
		tampered[c.rule] = true
	}
	for _, c := range brokenMafiaAgents() {
		tampered[c.rule] = true
	}
	for _, c := range brokenPushPlatforms() {
		tampered[c.rule] = true
	}
	for _, c := range malformedGameFrames() {
		tampered[c.rule] = true
	}
	for _, c := range brokenRefereeGateways() {
		tampered[c.rule] = true
	}
	for _, gap := range harness.Uncovered(cat, tampered, notLiveCheckable) {
		t.Error(gap)
	}
	harness.Record(t, "pyyol", tampered, notLiveCheckable)
	for id := range tampered {
		if cat.LevelOf(id) != spec.Must {
			t.Errorf("%s is tampered but is not a MUST rule of the catalogue", id)
		}
	}
}

// TestVectors recomputes vectors/pyyol with reference/pushsign.
func TestVectors(t *testing.T) {
	t.Parallel()
	files, err := vectors.Load("pyyol")
	if err != nil || len(files) == 0 {
		t.Fatalf("vectors: %v (%d files)", err, len(files))
	}
	bad, n := vectors.Check(files, pyyol.Vector)
	for _, m := range bad {
		t.Errorf("%s %s: %s", m.File, m.ID, m.Diff)
	}
	if n < 25 {
		t.Errorf("only %d vectors", n)
	}
}

// TestEachSideHasItsOwnRules: the three protocols split the catalogue by
// their features and together hold every rule.
func TestEachSideHasItsOwnRules(t *testing.T) {
	t.Parallel()
	cat, _ := spec.Load("pyyol")
	seen := map[string]bool{}
	for _, proto := range []*suite.Protocol{pyyol.Gateway(), pyyol.Push(), pyyol.Platform()} {
		own, err := proto.LoadCatalogue()
		if err != nil || len(own.Rules) == 0 {
			t.Fatalf("%s has no rules: %v", proto.Name, err)
		}
		for _, r := range own.Rules {
			seen[r.ID] = true
		}
	}
	for _, r := range cat.Rules {
		if !seen[r.ID] {
			t.Errorf("%s belongs to neither side", r.ID)
		}
	}
}
