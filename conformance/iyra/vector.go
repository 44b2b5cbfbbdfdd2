package iyra

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/iyra/proof"
)

// Vector recomputes a known-answer vector: kind "proof" checks a solution,
// kind "sequence" plays actions on a variant.
func Vector(kind string, input json.RawMessage) (any, error) {
	switch kind {
	case "proof":
		return proofVector(input)
	case "sequence":
		return sequenceVector(input)
	}
	return nil, fmt.Errorf("iyra: unknown vector kind %q", kind)
}

// proofInput is one proof check; times are RFC 3339.
type proofInput struct {
	Challenge  string `json:"challenge"`
	Difficulty int    `json:"difficulty"`
	Solution   string `json:"solution"`
	ExpiresAt  string `json:"expires_at"`
	Now        string `json:"now"`
}

// proofResult is what the server decides and why.
type proofResult struct {
	Digest string `json:"digest"`
	Valid  bool   `json:"valid"`
	Reason string `json:"reason"`
}

// proofVector decides one proof the way the server does.
func proofVector(input json.RawMessage) (any, error) {
	var in proofInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	exp, err1 := time.Parse(time.RFC3339, in.ExpiresAt)
	now, err2 := time.Parse(time.RFC3339, in.Now)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	err := proof.Verify(in.Challenge, in.Difficulty, exp, now, in.Solution)
	return proofResult{Digest: proof.Digest(in.Challenge, in.Solution), Valid: err == nil, Reason: proofReason(err)}, nil
}

// proofReason maps a proof error to the server's error code.
func proofReason(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, proof.ErrNotCanonical):
		return "invalid_solution_format"
	case errors.Is(err, proof.ErrExpired):
		return "challenge_expired"
	case errors.Is(err, proof.ErrDifficulty):
		return "invalid_difficulty"
	}
	return "invalid_proof"
}

// sequenceInput is a variant and a list of actions submitted in order at
// the latest revision.
type sequenceInput struct {
	Variant string        `json:"variant"`
	Actions []iyra.Action `json:"actions"`
}

// sequenceResult is the per-action verdicts and the final public state.
type sequenceResult struct {
	Results     []string         `json:"results"`
	Observation iyra.Observation `json:"observation"`
	Revision    int              `json:"revision"`
	Outcome     string           `json:"outcome"`
	Score       int              `json:"score"`
	Milestones  []string         `json:"milestones"`
}

// sequenceVector plays a sequence on a fresh engine game.
func sequenceVector(input json.RawMessage) (any, error) {
	var in sequenceInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	v, ok := iyra.DefaultPack().Variant(in.Variant)
	if !ok {
		return nil, fmt.Errorf("iyra: unknown variant %q", in.Variant)
	}
	g := iyra.NewGame(iyra.DefaultRules(), v, iyra.DefaultPack().Epilogues, iyra.ChainSeed("vector", "vector"))
	out := sequenceResult{Results: []string{}}
	for _, a := range in.Actions {
		res := "accepted"
		if rej := g.Apply(a); rej != nil {
			res = rej.Code
		}
		out.Results = append(out.Results, res)
	}
	view := g.View()
	out.Observation, out.Revision, out.Outcome, out.Score = view.Observation, view.Revision, view.Outcome, view.Score
	out.Milestones = view.Progress.Milestones
	return out, nil
}
