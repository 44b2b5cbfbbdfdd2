package protocoltest_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentgames/conformance/conformance/protocoltest"
	"github.com/agentgames/conformance/conformance/suite"
)

// The toy bell again, split into two protocols sharing the bell folder as
// Pyyol's gateway and push sides share pyyol: bell-ring runs ring.feature
// (BELL-DING), bell-count runs count.feature (BELL-COUNT).

const ringFeature = `@bell-ring
Feature: Ringing
  @BELL-DING
  Rule: a ring answers ding
    Scenario: one ring
      When the agent rings the bell
      Then the bell says ding
`

const countFeature = `@bell-count
Feature: Counting
  @BELL-COUNT
  Rule: each ring counts one more
    Scenario: two rings
      When the agent rings the bell
      And the agent rings the bell
      Then the count grew by 1
`

// bellSides returns the two protocols of the shared bell folder, whose
// reference code is code.
func bellSides(code string) []*suite.Protocol {
	files := fstest.MapFS{"bell/ring.feature": {Data: []byte(ringFeature)},
		"bell/count.feature": {Data: []byte(countFeature)}}
	ring, count := bellProtocol(code), bellProtocol(code)
	ring.Name, ring.FeatureFiles, ring.Features = "bell-ring", "ring*.feature", files
	count.Name, count.FeatureFiles, count.Features, count.BasePath = "bell-count", "count*.feature", files, "/bell-count"
	count.Vector, count.VectorFiles = nil, nil // the folder's vectors are bell-ring's
	return []*suite.Protocol{ring, count}
}

func TestSharedFolderPassesTheContract(t *testing.T) {
	protocoltest.TestProtocols(t, bellSides(bellCode))
}

// TestEachSideSeesOnlyItsOwnRules: a side's catalogue is cut to the rules
// its features tag, so alone it leaves the other side's rule uncovered.
func TestEachSideSeesOnlyItsOwnRules(t *testing.T) {
	ring := bellSides(bellCode)[0]
	cat, err := ring.LoadCatalogue()
	if err != nil || len(cat.Rules) != 1 || cat.Rules[0].ID != "BELL-DING" || cat.Protocol != "bell" {
		t.Fatalf("bell-ring's catalogue = %+v, %v; want BELL-DING alone, of folder bell", cat, err)
	}
	if err := protocoltest.Check(ring); err == nil || !strings.Contains(err.Error(), "rule BELL-COUNT has no scenario") {
		t.Fatalf("Check(bell-ring alone) = %v, want BELL-COUNT uncovered", err)
	}
}

func TestSharedFolderCatchesAMissingCitation(t *testing.T) {
	code := strings.Replace(bellCode, " (BELL-COUNT)", "", 1)
	err := protocoltest.CheckAll(bellSides(code))
	want := "folder bell: rule BELL-COUNT is cited nowhere"
	if err == nil || strings.Count(err.Error(), want) != 1 {
		t.Fatalf("CheckAll = %v, want %q once", err, want)
	}
}

func TestSharedFolderDefects(t *testing.T) {
	cases := map[string]struct {
		edit func(ps []*suite.Protocol)
		want string
	}{
		"feature run by no side": {func(ps []*suite.Protocol) { ps[1].FeatureFiles = "counting*.feature" },
			"bell/count.feature is run by no protocol of the folder"},
		"side without its tag": {func(ps []*suite.Protocol) { ps[0].Name = "bell-rings" },
			`is not tagged @bell-rings`},
		"different prefixes": {func(ps []*suite.Protocol) { ps[1].RulePrefix = "BEL" },
			"share a folder but not their Package and RulePrefix"},
		"stale citation": {func(ps []*suite.Protocol) {
			ps[0].ReferenceCode = fstest.MapFS{"b.go": {Data: []byte(bellCode + "// BELL-GONE\n")}}
		}, "folder bell: b.go:5 cites BELL-GONE"},
		"misquote": {func(ps []*suite.Protocol) { ps[0].Catalogue.Rules[1].Quote = "counts two more" },
			"folder bell: BELL-COUNT"},
		"bad glob": {func(ps []*suite.Protocol) { ps[0].FeatureFiles = "[" }, `FeatureFiles "["`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			ps := bellSides(bellCode)
			c.edit(ps)
			if err := protocoltest.CheckAll(ps); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("CheckAll = %v, want a problem containing %q", err, c.want)
			}
		})
	}
}

// TestASideRunsOnlyItsOwnFeatures: a run of bell-count plays count.feature
// alone and reports only BELL-COUNT among the protocol's rules.
func TestASideRunsOnlyItsOwnFeatures(t *testing.T) {
	count := bellSides(bellCode)[1]
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{count}, Seed: 1, CaseDir: t.TempDir()})
	if err != nil || rep.ExitCode() != 0 {
		t.Fatalf("run: %v, exit %d", err, rep.ExitCode())
	}
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.Name)
	}
	if len(names) != 1 || names[0] != "two rings" {
		t.Fatalf("bell-count ran %q, want only its own scenario %q", names, "two rings")
	}
	if len(rep.Protocols) != 1 || len(rep.Protocols[0].Rules) != 1 || rep.Protocols[0].Rules[0].ID != "BELL-COUNT" {
		t.Fatalf("bell-count's report lists rules %+v, want BELL-COUNT alone", rep.Protocols)
	}
}
