package suite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

// levelsFeature seeds one finding of every kind: a MUST failure that stops
// its check before a REFERENCE and a SHOULD rule are looked at (as
// FORGE-QUERY-BUDGET stops before FORGE-REF-BUDGETS), a SHOULD rule broken
// on its own, a REFERENCE rule met, a skipped MUST rule and a harness error.
const levelsFeature = `@toy
Feature: Levels
  @TOY-INCR @TOY-HINT @TOY-POLITE
  Rule: a MUST failure stops its check

    Scenario: the count is wrong before the header is looked at
      Given a fresh counter
      When the agent increments the counter twice
      Then the counter reads 2
      And the response carries the toy header
      And the answer is polite

  @TOY-MANNERS
  Rule: a SHOULD rule broken on its own

    Scenario: the answer has no manners
      Given a fresh counter
      Then the answer has manners

  @TOY-SHAPE
  Rule: a REFERENCE rule met

    Scenario: the shape is the kit's
      Given a fresh counter
      Then the shape is the kit's

  @TOY-OPTIONAL
  Rule: a MUST rule skipped

    Scenario: an unsupported capability is skipped
      Given a fresh counter
      When the agent asks for the optional capability
      Then nothing is judged

  @TOY-ERR
  Rule: a harness error

    Scenario: the harness breaks
      Given a fresh counter
      Then the harness breaks
`

// levelsWant is every rule's status in every report.
var levelsWant = map[string]string{
	"TOY-INCR": "fail", "TOY-HINT": "warn", "TOY-POLITE": "warn", "TOY-MANNERS": "warn",
	"TOY-SHAPE": "pass", "TOY-OPTIONAL": "skip", "TOY-ERR": "error", "TOY-UNTESTED": "untested",
}

func levelsProtocol(t *testing.T) *suite.Protocol {
	doc, err := os.ReadFile("testdata/toy/openapi.yaml")
	require.NoError(t, err)
	rule := func(id string, lv spec.Level) spec.Rule {
		r := spec.Rule{ID: id, Level: lv, Title: strings.ToLower(id), Quote: "q", Path: "$." + id}
		if lv == verdict.Reference {
			r.Choice = "the kit's"
		}
		return r
	}
	cat := &spec.Catalogue{Protocol: "toy", Title: "Toy", Seed: "none", Rules: []spec.Rule{
		rule("TOY-INCR", verdict.Must), rule("TOY-HINT", verdict.Reference), rule("TOY-POLITE", verdict.Should),
		rule("TOY-MANNERS", verdict.Should), rule("TOY-SHAPE", verdict.Reference), rule("TOY-OPTIONAL", verdict.Must),
		rule("TOY-ERR", verdict.Should), rule("TOY-UNTESTED", verdict.Reference), rule("TOY-OPENAPI", verdict.Reference),
	}}
	steps := func(sc *suite.ScenarioContext, env *suite.Env) {
		toySteps(sc, env)
		sc.Step(suite.Pattern(`^the answer is polite$`), func() error { return verdict.Failf("TOY-POLITE", "please", "", "") })
		sc.Step(suite.Pattern(`^the answer has manners$`), func() error { return verdict.Failf("TOY-MANNERS", "thanks", "", "") })
		sc.Step(suite.Pattern(`^the shape is the kit's$`), func() error { return nil })
		sc.Step(suite.Pattern(`^the harness breaks$`), func() error { return verdict.Errorf("the toy harness broke") })
	}
	return &suite.Protocol{Name: "toy", Title: "Toy counter", BasePath: "/toy",
		Reference: func(suite.ReferenceConfig) http.Handler { return &toyServer{fault: addsTwo} },
		Steps:     steps, Catalogue: cat, OpenAPI: doc,
		Features: fstest.MapFS{"toy/levels.feature": {Data: []byte(levelsFeature)}}}
}

// TestLevelsNeverLieInAnyReport: a live run with every kind of finding
// seeded; every rule's status is the same in the JSON rule view, the HTML
// matrix, and no SHOULD or REFERENCE rule is ever "fail" in the JSON, the
// HTML, the JUnit failures or the console findings.
func TestLevelsNeverLieInAnyReport(t *testing.T) {
	p := levelsProtocol(t)
	srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{}))
	defer srv.Close()
	var progress bytes.Buffer
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL,
		Seed: 3, Checks: -1, CaseDir: t.TempDir(), Progress: report.NewConsole(&progress, report.ConsoleOptions{})})
	require.NoError(t, err)
	require.Len(t, rep.Results, 5, "%v", rep.Errors)
	require.Equal(t, 1, rep.ExitCode(), "the MUST failure fails the run")
	levels := map[string]spec.Level{}
	for _, r := range p.Catalogue.Rules {
		levels[r.ID] = r.Level
	}
	must := func(id string) bool { return levels[id] == verdict.Must }

	assertJSONLevels(t, rep, must)
	assertHTMLLevels(t, rep)
	assertJUnitLevels(t, rep, must)
	var sum bytes.Buffer
	report.Summary(&sum, rep)
	assertConsoleLevels(t, progress.String()+sum.String(), must)
}

func assertJSONLevels(t *testing.T, rep *verdict.Report, must func(string) bool) {
	var buf bytes.Buffer
	require.NoError(t, report.WriteJSON(&buf, rep))
	var doc struct {
		Rules map[string]struct {
			Status  string `json:"status"`
			Results []struct {
				Status string `json:"status"`
			} `json:"results"`
		} `json:"rules"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	for id, want := range levelsWant {
		assert.Equal(t, want, doc.Rules[id].Status, "JSON rule %s", id)
		for _, c := range doc.Rules[id].Results {
			assert.False(t, !must(id) && c.Status == "fail", "JSON: a check under %s (not MUST) reads fail", id)
		}
	}
}

var htmlRuleRow = regexp.MustCompile(`<tr id="rule-([A-Z-]+)" class="rule r-(\w+)">`)

func assertHTMLLevels(t *testing.T, rep *verdict.Report) {
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTML(&buf, rep))
	got := map[string]string{}
	for _, m := range htmlRuleRow.FindAllStringSubmatch(buf.String(), -1) {
		got[m[1]] = m[2]
	}
	for id, want := range levelsWant {
		assert.Equal(t, want, got[id], "HTML matrix row of %s", id)
	}
}

func assertJUnitLevels(t *testing.T, rep *verdict.Report, must func(string) bool) {
	var buf bytes.Buffer
	require.NoError(t, report.WriteJUnit(&buf, rep))
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(buf.Bytes(), &doc))
	failures := 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failures++
				assert.True(t, must(c.Failure.Type), "JUnit failure of %q names %s, not a MUST rule", c.Name, c.Failure.Type)
			}
			if c.Name == "the answer has no manners" {
				assert.Contains(t, c.Out, "WARNING TOY-MANNERS", "a SHOULD finding is a warning in JUnit")
			}
		}
	}
	assert.Equal(t, 1, failures, "one check failed, on its MUST rule")
}

// assertConsoleLevels: every FAIL the console prints (progress lines and
// findings) names only MUST rules; SHOULD and REFERENCE findings are WARN.
func assertConsoleLevels(t *testing.T, out string, must func(string) bool) {
	status := ""
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "  toy  "); i >= 0 && !strings.HasPrefix(line, " ") {
			status = strings.TrimSpace(line[:i])
		}
		if strings.Contains(line, "... ") {
			status = line[strings.LastIndex(line, "... ")+4:]
		}
		rule := strings.TrimPrefix(strings.TrimSpace(line), "rule:")
		if rule == strings.TrimSpace(line) {
			continue
		}
		id := strings.Fields(rule)[0]
		if strings.HasPrefix(status, "FAIL") {
			assert.True(t, must(id), "console: a FAIL finding names %s, not a MUST rule:\n%s", id, out)
		}
	}
	assert.Contains(t, out, "WARN  toy  Levels › the answer has no manners")
	assert.Contains(t, out, "rule:       TOY-INCR (MUST)")
}

// TestNoPassOnNothing: a run whose checks cite MUST rules but decide none
// of them (one skipped, one a SHOULD warning) exits 2 saying nothing was
// checked; a selection of SHOULD rules only is not held to it.
func TestNoPassOnNothing(t *testing.T) {
	p := levelsProtocol(t)
	for _, tc := range []struct {
		rules []string
		code  int
	}{{[]string{"TOY-OPTIONAL", "TOY-MANNERS"}, 2}, {[]string{"TOY-MANNERS"}, 0}, {[]string{"TOY-OPTIONAL", "TOY-SHAPE"}, 2}} {
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Rules: tc.rules,
			Seed: 3, Checks: -1, CaseDir: t.TempDir()})
		require.NoError(t, err)
		assert.Equal(t, tc.code, rep.ExitCode(), "--rule %v", tc.rules)
		var sum bytes.Buffer
		report.Summary(&sum, rep)
		var junit bytes.Buffer
		require.NoError(t, report.WriteJUnit(&junit, rep))
		if tc.code == 2 {
			assert.Contains(t, sum.String(), "NOTHING CHECKED: toy: none of its 2 MUST rules reached a verdict on this target, so nothing was checked", "--rule %v", tc.rules)
			assert.Contains(t, junit.String(), `type="nothing-checked"`, "CI reading only JUnit sees it")
			assert.Contains(t, sum.String(), "RESULT: ERROR (exit 2, nothing was checked)")
			var page bytes.Buffer
			require.NoError(t, report.WriteHTML(&page, rep))
			assert.Contains(t, page.String(), "NOTHING CHECKED: toy: none of its 2 MUST rules")
		} else {
			assert.NotContains(t, sum.String(), "nothing was checked")
		}
	}
}
