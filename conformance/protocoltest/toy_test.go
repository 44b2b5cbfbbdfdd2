package protocoltest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/protocoltest"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
	"github.com/agentgames/conformance/vectors"
)

// The toy "bell" protocol follows the README's "Adding a protocol"
// checklist with in-memory data: a catalogue quoting its contract, a
// feature per rule, an OpenAPI document, a vector, and reference code
// citing every rule.

const bellContract = `{"ring":{"rule":"A ring answers with the word ding."},"count":{"rule":"Each ring counts one more."}}`

const bellOpenAPI = `openapi: 3.0.3
info: {title: bell, version: "1"}
paths:
  /ring:
    post:
      operationId: ring
      responses:
        "200":
          description: the answer
          content:
            application/json:
              schema:
                type: object
                required: [word, count]
                properties:
                  word: {type: string}
                  count: {type: integer}
`

const bellFeature = `@bell
Feature: Bell
  @BELL-DING
  Rule: a ring answers ding
    Scenario: one ring
      When the agent rings the bell
      Then the bell says ding

  @BELL-COUNT
  Rule: each ring counts one more
    Scenario: two rings
      When the agent rings the bell
      And the agent rings the bell
      Then the count grew by 1
`

// bellCode is the toy's reference code, as the citation check reads it.
const bellCode = `package bell

// ring answers ding (BELL-DING) and counts the ring (BELL-COUNT).
func ring(n int) (string, int) { return "ding", n + 1 }
`

func bellCatalogue() *spec.Catalogue {
	return &spec.Catalogue{Protocol: "bell", Title: "Bell", Seed: "bell.json", Source: "bell/bell.json", Rules: []spec.Rule{
		{ID: "BELL-DING", Level: spec.Must, Title: "a ring answers ding", Quote: "answers with the word ding", Path: "$.ring.rule"},
		{ID: "BELL-COUNT", Level: spec.Must, Title: "rings are counted", Quote: "counts one more", Path: "$.count.rule"},
	}}
}

// bellServer is the toy reference.
func bellServer(suite.ReferenceConfig) http.Handler {
	n := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/ring") {
			http.Error(w, `{"code":"not_found"}`, http.StatusNotFound)
			return
		}
		n++
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"word": "ding", "count": n})
	})
}

func bellSteps(sc *suite.ScenarioContext, env *suite.Env) {
	var last struct {
		Word  string
		Count int
	}
	prev := 0
	sc.Step(suite.Pattern(`^the agent rings the bell$`), func(ctx context.Context) error {
		prev = last.Count
		resp, err := env.HTTP.Do(ctx, driver.Request{Method: "POST", Path: "/ring"})
		if err != nil {
			return err
		}
		return resp.Decode("BELL-DING", &last)
	})
	sc.Step(suite.Pattern(`^the bell says ding$`), func() error {
		if last.Word != "ding" {
			return verdict.Failf("BELL-DING", "ding", last.Word, "")
		}
		return nil
	})
	sc.Step(suite.Pattern(`^the count grew by (\d+)$`), func(n int) error {
		if last.Count != prev+n {
			return verdict.Failf("BELL-COUNT", prev+n, last.Count, "")
		}
		return nil
	})
}

func bellVector(kind string, input json.RawMessage) (any, error) {
	var in struct{ Rings int }
	err := json.Unmarshal(input, &in)
	return map[string]any{"word": "ding", "count": in.Rings}, err
}

func bellProtocol(code string) *suite.Protocol {
	return &suite.Protocol{
		Name: "bell", Title: "Bell", BasePath: "/bell", Folder: "bell", Package: "bell", RulePrefix: "BELL",
		Reference: bellServer, Steps: bellSteps, Vector: bellVector,
		Catalogue: bellCatalogue(), Source: []byte(bellContract), OpenAPI: []byte(bellOpenAPI),
		Features:      fstest.MapFS{"bell/bell.feature": {Data: []byte(bellFeature)}},
		ReferenceCode: fstest.MapFS{"bell.go": {Data: []byte(code)}},
		SchemaFiles: fstest.MapFS{"rules.json": {Data: []byte(`not a schema`)},
			"ring.json": {Data: []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["word"]}`)}},
		VectorFiles: []vectors.File{{Protocol: "bell", Kind: "ring", Path: "bell/ring.json", Vectors: []vectors.Vector{
			{ID: "three", Input: json.RawMessage(`{"rings":3}`), Expected: json.RawMessage(`{"word":"ding","count":3}`)}}}},
	}
}

func TestToyProtocolPassesTheContract(t *testing.T) {
	protocoltest.TestProtocol(t, bellProtocol(bellCode))
}

func TestRemovedCitationFailsTheContract(t *testing.T) {
	code := strings.Replace(bellCode, " (BELL-COUNT)", "", 1)
	err := protocoltest.Check(bellProtocol(code))
	if err == nil || !strings.Contains(err.Error(), "rule BELL-COUNT is cited nowhere") {
		t.Fatalf("Check = %v, want the uncited BELL-COUNT named", err)
	}
}

func TestEveryKindOfDefectIsReported(t *testing.T) {
	cases := map[string]struct {
		edit func(p *suite.Protocol)
		want string
	}{
		"misquote": {func(p *suite.Protocol) { p.Catalogue.Rules[0].Quote = "answers dong" }, "BELL-DING: \"answers dong\" is not the contract's words"},
		"uncovered rule": {func(p *suite.Protocol) {
			p.Features = fstest.MapFS{"bell/b.feature": {Data: []byte(strings.Split(bellFeature, "  @BELL-COUNT")[0])}}
		}, "rule BELL-COUNT has no scenario"},
		"unknown tag": {func(p *suite.Protocol) {
			p.Features = fstest.MapFS{"bell/b.feature": {Data: []byte(strings.Replace(bellFeature, "@BELL-COUNT", "@BELL-COUNTS", 1))}}
		}, "names no catalogued rule"},
		"stale citation": {func(p *suite.Protocol) {
			p.ReferenceCode = fstest.MapFS{"b.go": {Data: []byte(bellCode + "// BELL-GONE\n")}}
		}, "cites BELL-GONE"},
		"wrong vector": {func(p *suite.Protocol) {
			p.VectorFiles[0].Vectors[0].Expected = json.RawMessage(`{"word":"dong","count":3}`)
		}, "not reproduced"},
		"lenient vectors":           {func(p *suite.Protocol) { p.Vector = func(string, json.RawMessage) (any, error) { return nil, nil } }, "not reproduced"},
		"bad prefix":                {func(p *suite.Protocol) { p.RulePrefix = "BEL" }, "lacks the prefix BEL-"},
		"missing field":             {func(p *suite.Protocol) { p.Package = "" }, "Package is empty"},
		"broken reference":          {func(p *suite.Protocol) { p.Reference = brokenBell }, "embedded run exits 1"},
		"bad OpenAPI":               {func(p *suite.Protocol) { p.OpenAPI = []byte("openapi: 3.0.3\npaths: {x: 1}\n") }, "oas:"},
		"serve flags without Flags": {func(p *suite.Protocol) { p.ServeFlags = []string{"--secret", "s"} }, "binds no Flags"},
		"stale not-live entry": {func(p *suite.Protocol) {
			p.Quota = &suite.QuotaPlan{NotLive: map[string]string{"BELL-GONE": "needs a day"}}
		}, "Quota.NotLive names BELL-GONE"},
		"rule for agents without an agent scenario": {func(p *suite.Protocol) {
			p.Catalogue.Rules = append(p.Catalogue.Rules, spec.Rule{ID: "BELL-AGENT-ONCE", Level: spec.Must, Side: spec.AgentSide,
				Title: "an agent rings once", Quote: "counts one more", Path: "$.count.rule"})
		}, "rule for agents BELL-AGENT-ONCE has no scenario in bell/agents.feature"},
		"platform rule in agents.feature": {func(p *suite.Protocol) {
			p.Features = fstest.MapFS{"bell/bell.feature": {Data: []byte(bellFeature)},
				"bell/agents.feature": {Data: []byte("@agent @bell\nFeature: agents\n  @BELL-DING\n  Rule: r\n    Scenario: s\n      Given an agent that rings\n")}}
		}, "names BELL-DING, a platform rule"},
		"bad frame schema": {func(p *suite.Protocol) {
			p.SchemaFiles = fstest.MapFS{"frame.json": {Data: []byte(`{"type":"strin"}`)}}
		}, "schema frame.json"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := bellProtocol(bellCode)
			c.edit(p)
			err := protocoltest.Check(p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check = %v, want a problem containing %q", err, c.want)
			}
		})
	}
}

// brokenBell never counts.
func brokenBell(suite.ReferenceConfig) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"word":"ding","count":0}`))
	})
}
