package bounty

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/pow"
)

// Vector recomputes one known-answer vector of vectors/bounty with the
// reference primitives.
func Vector(kind string, input json.RawMessage) (any, error) {
	calc, ok := map[string]func(json.RawMessage) (any, error){
		"registration":  registrationVector,
		"hash_preimage": puzzleVector(bounty.TypeHash),
		"modular":       puzzleVector(bounty.TypeModular),
		"decode":        puzzleVector(bounty.TypeDecode),
		"shamir":        shamirVector,
		"proximity":     proximityVector,
		"next_move":     nextMoveVector,
	}[kind]
	if !ok {
		return nil, fmt.Errorf("bounty: unknown vector kind %q", kind)
	}
	return calc(input)
}

func registrationVector(input json.RawMessage) (any, error) {
	var in struct {
		RegToken string `json:"reg_token"`
		Nonce    string `json:"nonce"`
		PowBits  int    `json:"pow_bits"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(in.RegToken + in.Nonce))
	return map[string]any{"digest": hex.EncodeToString(sum[:]), "leading_zero_bits": pow.LeadingZeroBits(sum[:]),
		"valid": bounty.RegistrationOK(in.RegToken, in.Nonce, in.PowBits)}, nil
}

// puzzleVector verifies a submitted solution and, for modular and decode,
// also reports the solver's own answer.
func puzzleVector(ptype string) func(json.RawMessage) (any, error) {
	return func(input json.RawMessage) (any, error) {
		var in struct {
			bounty.Params
			NonceHex     string          `json:"nonce_hex"`
			X            json.RawMessage `json:"x"`
			PlaintextHex string          `json:"plaintext_hex"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		p := bounty.Puzzle{Type: ptype, Params: in.Params}
		err := bounty.Verify(p, bounty.Solution{NonceHex: in.NonceHex, X: in.X, PlaintextHex: in.PlaintextHex})
		out := map[string]any{"valid": err == nil, "reason": reason(err)}
		switch ptype {
		case bounty.TypeModular:
			out["x"] = bounty.FermatSolve(in.Params).String()
		case bounty.TypeDecode:
			out["plaintext_hex"] = hex.EncodeToString(bounty.DecodePlaintext(in.Params))
		}
		return out, nil
	}
}

func reason(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func shamirVector(input json.RawMessage) (any, error) {
	var in struct {
		SharesHex []string `json:"shares_hex"`
		SecretHex string   `json:"secret_hex"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	var shares [][]byte
	for _, s := range in.SharesHex {
		raw, err := hex.DecodeString(s)
		if err != nil {
			return nil, err
		}
		shares = append(shares, raw)
	}
	want, _ := hex.DecodeString(in.SecretHex)
	got, err := bounty.Combine(shares)
	code := ""
	if err != nil {
		code = err.Error()
	}
	return map[string]any{"reconstructs": err == nil && bytes.Equal(got, want), "error": code}, nil
}

func proximityVector(input json.RawMessage) (any, error) {
	var in struct {
		Board boardWire `json:"board"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	return bounty.ComputeProximity(in.Board.board()), nil
}

func nextMoveVector(input json.RawMessage) (any, error) {
	var in struct {
		Board  boardWire `json:"board"`
		Caller struct {
			AgentID string `json:"agent_id"`
			Held    []int  `json:"held"`
			Closed  bool   `json:"closed"`
		} `json:"caller"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	if in.Caller.AgentID == "" {
		return nil, errors.New("caller.agent_id is required")
	}
	m := bounty.NextMove(in.Board.board(), bounty.Caller{AgentID: in.Caller.AgentID, Held: in.Caller.Held, Closed: in.Caller.Closed})
	return viewOf(m), nil
}
