package forge

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// documentsSteps registers the steps of features/forge/documents.feature.
func (w *world) documentsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the puzzle schema is read without a key$`), w.readSchema)
	sc.Step(pattern(`^it validates difficulty wherever it describes it and never requires it$`), w.difficultyOptional)
	sc.Step(pattern(`^the public documents are read without a key$`), w.readDocuments)
	sc.Step(pattern(`^each is served with status 200 and a body$`), w.documentsServed)
	sc.Step(pattern(`^the chain summary is read without a key$`), w.readChain)
	sc.Step(pattern(`^it shows a length of at least 10 and no level content$`), w.chainJudged)
	sc.Step(pattern(`^a client tries to disable position 1 over HTTP$`), w.tryDisable)
	sc.Step(pattern(`^the attempt is refused and the API description names no disable operation$`), w.disableJudged)
}

func (w *world) readDocuments(ctx context.Context) error {
	for _, d := range documents {
		// Being served is what the document rules say: a 404 fails
		// them, it does not leave them unchecked.
		resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: d.path, RouteUnderTest: true})
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

func (w *world) documentsServed() error {
	for i, d := range documents {
		r := w.answers[i]
		if r.Status != http.StatusOK || len(r.Body) == 0 {
			return verdict.Failf(d.rule, "200 with a body", r.Status, "GET %s without a key", d.path)
		}
	}
	if !strings.Contains(string(w.answers[2].Body), kitDSLMarker) {
		w.note("FORGE-REF-DSL", "the kit's dsl.md", "another DSL document", "DSL differential checks will skip")
	}
	var schema map[string]any
	if json.Unmarshal(w.answers[0].Body, &schema) != nil || schema["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		w.note("FORGE-REF-SCHEMA", "a JSON Schema 2020-12 document", "another document", "/spec/puzzle.schema.json")
	}
	return nil
}

func (w *world) readChain(ctx context.Context) error {
	resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: "/api/chain"})
	w.Last = resp
	return err
}

// chainJudged: the summary counts at least the seed positions from 1 and
// carries no level content (FORGE-CHAIN-SUMMARY, FORGE-CHAIN-SEED-POSITIONS).
func (w *world) chainJudged() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf("FORGE-CHAIN-SUMMARY", 200, w.Last.Status, "GET /api/chain without a key")
	}
	var doc map[string]any
	if err := w.Last.Decode("FORGE-CHAIN-SUMMARY", &doc); err != nil {
		return err
	}
	if n, _ := doc["length"].(float64); n < 10 {
		return verdict.Failf("FORGE-CHAIN-SEED-POSITIONS", "a length of at least 10", doc["length"], "the seed alone holds positions 1-10")
	}
	if f, ok := doc["firstPosition"].(float64); ok && f != 1 {
		return verdict.Failf("FORGE-CHAIN-FIRST-POSITION", 1, f, "GET /api/chain firstPosition")
	}
	content := append([]string{"title", "rules", "examples", "levelId", "author"}, forbiddenKeys...)
	if k := findKey(doc, content); k != "" {
		return verdict.Failf("FORGE-CHAIN-SUMMARY", "a summary only", "field "+k, "GET /api/chain exposes level content")
	}
	return nil
}

// disableAttempts are the disable operations a platform might expose
// (FORGE-NO-DISABLE-API): a flag patched either way and a DELETE, each on
// the level's position and on its id, since a route may name a level
// either way (round 7 planted a DELETE the PATCH alone missed). A disable
// action of its own path shows in the OpenAPI's paths (disableJudged).
func disableAttempts() []driver.Request {
	var reqs []driver.Request
	for _, level := range []string{"1", "seed-01-shift"} {
		at := "/api/levels/" + level
		reqs = append(reqs,
			driver.Request{Method: http.MethodPatch, Path: at, JSON: map[string]any{"enabled": false}, RouteUnderTest: true},
			driver.Request{Method: http.MethodPatch, Path: at, JSON: map[string]any{"disabled": true}, RouteUnderTest: true},
			driver.Request{Method: http.MethodDelete, Path: at, RouteUnderTest: true})
	}
	return reqs
}

// tryDisable attempts the disableAttempts. The route is what
// FORGE-NO-DISABLE-API judges: one that is not served is the answer the
// rule wants, so a 404 or 405 reaches the step.
func (w *world) tryDisable(ctx context.Context) error {
	for _, req := range disableAttempts() {
		resp, err := w.do(ctx, nil, req)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: "/openapi.json"})
	w.Last = resp
	return err
}

func (w *world) disableJudged() error {
	tried := disableAttempts()
	for i, r := range w.answers {
		if r.Status/100 == 2 {
			return verdict.Failf("FORGE-NO-DISABLE-API", "no HTTP way to disable a level", r.Status, "a disable attempt was accepted: %s %s", tried[i%len(tried)].Method, tried[i%len(tried)].Path)
		}
	}
	var doc struct {
		Paths map[string]any `json:"paths"`
	}
	if w.Last != nil && json.Unmarshal(w.Last.Body, &doc) == nil {
		for p := range doc.Paths {
			if strings.Contains(strings.ToLower(p), "disable") {
				return verdict.Failf("FORGE-NO-DISABLE-API", "no disable operation", p, "the API description documents one")
			}
		}
	}
	return nil
}

func (w *world) readSchema(ctx context.Context) error {
	// The contract publishes the schema's URL (FORGE-DOC-SCHEMA): a 404
	// is an answer the step judges.
	resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: "/spec/puzzle.schema.json", RouteUnderTest: true})
	w.Last = resp
	return err
}

// difficultyOptional: wherever the source schema describes a difficulty
// property it gives it a constraint and leaves it out of `required`
// (FORGE-LEGACY-DIFFICULTY-SCHEMA: optional-and-schema-validated).
func (w *world) difficultyOptional() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf("FORGE-DOC-SCHEMA", 200, w.Last.Status, "GET /spec/puzzle.schema.json without a key")
	}
	var doc any
	if json.Unmarshal(w.Last.Body, &doc) != nil {
		return verdict.Skipf("unchecked: /spec/puzzle.schema.json is not JSON")
	}
	found := 0
	var bad error
	walkObjects(doc, func(o map[string]any) {
		props, _ := o["properties"].(map[string]any)
		d, ok := props["difficulty"]
		if !ok || bad != nil {
			return
		}
		found++
		if req, _ := o["required"].([]any); containsValue(req, "difficulty") {
			bad = verdict.Failf("FORGE-LEGACY-DIFFICULTY-SCHEMA", "difficulty optional", "required", "the puzzle schema requires difficulty")
			return
		}
		if !constrains(d) {
			bad = verdict.Failf("FORGE-LEGACY-DIFFICULTY-SCHEMA", "difficulty schema-validated", d, "the puzzle schema puts no constraint on difficulty")
		}
	})
	if bad != nil {
		return bad
	}
	if found == 0 {
		// A hosted deployment removes difficulty before validation, so its
		// served schema may leave the field out: no reading is broken.
		return verdict.Skipf("unchecked: the served puzzle schema does not describe difficulty")
	}
	return nil
}
