// Package phantompress is the runner's side of The Phantom Press: step
// definitions for features/phantom-press, an observation-synced model of a
// run, a rapid state machine and the known-answer vector calculator.
package phantompress

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/phantompress/engine"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// Protocol describes The Phantom Press to the runner.
var Protocol = &suite.Protocol{
	Name:       "phantom-press",
	Title:      "幻聴新聞社 (The Phantom Press)",
	Folder:     "phantom-press",
	Package:    "phantompress",
	RulePrefix: "PP",
	BasePath:   pp.BasePath,
	Preflight:  "/", // GET /api, the contract document
	Reference:  pp.Handler,
	Steps:      Steps,
	Properties: []suite.Property{{
		Name: "random play against the model",
		Rules: []string{"PP-ACTION-OK-FALSE", "PP-ACTION-TURN", "PP-AP-COST", "PP-ANSWER-REJECT", "PP-ANSWER-HEDGE-ONLY",
			"PP-SETTLE-TABLE", "PP-AVAILABLE-ACTIONS", "PP-HIDE-BEFORE-PUBLISH", "PP-RUN-BUDGET-SPENT"},
		New: newMachine,
	}},
	Vector: Vector,
	Quota:  LiveQuota,
}

// Vector recomputes a known-answer vector with the reference engine.
func Vector(kind string, input json.RawMessage) (any, error) {
	switch kind {
	case "law":
		var in struct {
			Sources []engine.Source `json:"sources"`
			Claim   string          `json:"claim"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		return map[string]any{"verdict": engine.Law(in.Sources, in.Claim), "branch": engine.Branch(in.Sources, in.Claim)}, nil
	case "answer-parse":
		var in struct {
			Arg string `json:"arg"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		a, err := engine.ParseAnswer(in.Arg)
		if err != nil {
			return map[string]any{"ok": false}, nil
		}
		return map[string]any{"ok": true, "answer": a, "needs_source": a.NeedsSource()}, nil
	case "settlement":
		var in struct {
			CaseNo  int             `json:"case_no"`
			Trust   int             `json:"trust"`
			Answers []engine.Graded `json:"answers"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		return engine.Settle(in.CaseNo, in.Trust, in.Answers), nil
	case "score":
		var in struct{ Points, Trust, Turns int }
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		return map[string]int{"score": engine.Score(in.Points, in.Trust, in.Turns)}, nil
	case "extend":
		return extendVector(input)
	}
	return nil, fmt.Errorf("phantom-press has no vector kind %q", kind)
}

// extendVector applies one extend to an active run with the given budget:
// the budget after it and the error, if any (PP-RUN-EXTEND-LOGGED; a
// refused extend, however large, changes nothing).
func extendVector(input json.RawMessage) (any, error) {
	var in struct{ Budget, Turns int }
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	r := &engine.Run{Budget: in.Budget, Status: engine.StatusActive}
	out := map[string]any{"ok": true}
	switch err := r.Extend(in.Turns); {
	case errors.Is(err, engine.ErrTurnLimit):
		out = map[string]any{"ok": false, "error": "turn_limit"}
	case err != nil:
		out = map[string]any{"ok": false, "error": "invalid_turns"}
	}
	out["budget_after"] = r.Budget
	return out, nil
}
