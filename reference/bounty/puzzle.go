package bounty

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"strconv"

	"github.com/agentgames/conformance/reference/pow"
)

// Puzzle types of the ladder.
const (
	TypeHash    = "hash_preimage"
	TypeModular = "modular"
	TypeDecode  = "decode"
)

// Rung is one step of the difficulty ladder (BOUNTY-LADDER).
type Rung struct {
	ShareIndex     int
	Type           string
	DifficultyBits int
}

// Ladder is the contract's difficulty ladder, share 1 first (BOUNTY-LADDER).
var Ladder = []Rung{
	{1, TypeHash, 12},
	{2, TypeModular, 0},
	{3, TypeDecode, 0},
	{4, TypeHash, 16},
	{5, TypeModular, 0},
}

// Cost orders shares by the ladder: constant-time rungs first, then proof
// of work by its bits (BOUNTY-NEXT-SPREAD).
func Cost(shareIndex int) int {
	if shareIndex < 1 || shareIndex > len(Ladder) {
		return 1 << 30
	}
	return Ladder[shareIndex-1].DifficultyBits
}

// ModulusDecimal is the prime of the modular puzzles, 2^127 - 1: beyond the
// JSON safe integer range, so integers travel as decimal strings
// (BOUNTY-INTEGERS).
const ModulusDecimal = "170141183460469231731687303715884105727"

// PlaintextLen is the decode puzzle's plaintext length in bytes
// (BOUNTY-BASE32).
const PlaintextLen = 20

// Params are a puzzle's public parameters; only the type's fields are set.
type Params struct {
	PrefixHex      string `json:"prefix_hex,omitempty"`
	DifficultyBits int    `json:"difficulty_bits,omitempty"`
	A              string `json:"a,omitempty"`
	B              string `json:"b,omitempty"`
	P              string `json:"p,omitempty"`
	SeedHex        string `json:"seed_hex,omitempty"`
	CiphertextB32  string `json:"ciphertext_b32,omitempty"`
}

// Puzzle is one share's puzzle as the manifest shows it.
type Puzzle struct {
	ShareIndex int    `json:"share_index"`
	Type       string `json:"ptype"`
	Params     Params `json:"params"`
}

// Solution is what solve submits; only the puzzle type's field matters.
// X is kept raw so that both a JSON integer and a decimal string are read
// (BOUNTY-INTEGERS).
type Solution struct {
	NonceHex     string          `json:"nonce_hex,omitempty"`
	X            json.RawMessage `json:"x,omitempty"`
	PlaintextHex string          `json:"plaintext_hex,omitempty"`
}

// Verification errors: a malformed solution, and a well-formed wrong one.
var (
	ErrBadSolution   = errors.New("bad_request")
	ErrWrongSolution = errors.New("wrong_solution")
)

// NewPuzzle draws the puzzle of one rung from rnd.
func NewPuzzle(r Rung, rnd io.Reader) Puzzle {
	p := Puzzle{ShareIndex: r.ShareIndex, Type: r.Type}
	switch r.Type {
	case TypeHash:
		p.Params.PrefixHex = hex.EncodeToString(draw(rnd, 16))
		p.Params.DifficultyBits = r.DifficultyBits
	case TypeModular:
		mod, _ := new(big.Int).SetString(ModulusDecimal, 10)
		a := new(big.Int).Mod(new(big.Int).SetBytes(draw(rnd, 16)), new(big.Int).Sub(mod, big.NewInt(1)))
		a.Add(a, big.NewInt(1))
		b := new(big.Int).Mod(new(big.Int).SetBytes(draw(rnd, 16)), mod)
		p.Params.A, p.Params.B, p.Params.P = a.String(), b.String(), ModulusDecimal
	case TypeDecode:
		seed := hex.EncodeToString(draw(rnd, 16))
		p.Params.SeedHex = seed
		p.Params.CiphertextB32 = xorPad(seed, draw(rnd, PlaintextLen))
	}
	return p
}

func draw(rnd io.Reader, n int) []byte {
	b := make([]byte, n)
	_, _ = io.ReadFull(rnd, b)
	return b
}

// xorPad encrypts plain under sha256(bytes(seed_hex)) into canonical padded
// base32 (BOUNTY-PUZZLE-DECODE, BOUNTY-BASE32).
func xorPad(seedHex string, plain []byte) string {
	return base32.StdEncoding.EncodeToString(xorDigest(seedHex, plain))
}

func xorDigest(seedHex string, data []byte) []byte {
	seed, _ := hex.DecodeString(seedHex)
	pad := sha256.Sum256(seed)
	out := make([]byte, len(data))
	for i := range data {
		out[i] = data[i] ^ pad[i%len(pad)]
	}
	return out
}

// Verify checks sol against the puzzle exactly as solution_schemas says.
func Verify(p Puzzle, sol Solution) error {
	switch p.Type {
	case TypeHash:
		return verifyHash(p.Params, sol.NonceHex)
	case TypeModular:
		return verifyModular(p.Params, sol.X)
	case TypeDecode:
		return verifyDecode(p.Params, sol.PlaintextHex)
	}
	return ErrBadSolution
}

// verifyHash: sha256(bytes(prefix_hex) || bytes(nonce_hex)) has at least
// difficulty_bits leading zero bits (BOUNTY-PUZZLE-HASH).
func verifyHash(p Params, nonceHex string) error {
	nonce, err := hex.DecodeString(nonceHex)
	if err != nil || nonceHex == "" {
		return ErrBadSolution
	}
	prefix, _ := hex.DecodeString(p.PrefixHex)
	sum := sha256.Sum256(append(prefix, nonce...))
	if !pow.HasLeadingZeroBits(sum[:], p.DifficultyBits) {
		return ErrWrongSolution
	}
	return nil
}

// verifyModular: a*x mod p == b (BOUNTY-PUZZLE-MODULAR), x read as a JSON
// integer or a decimal string (BOUNTY-INTEGERS).
func verifyModular(p Params, raw json.RawMessage) error {
	x, ok := ParseInteger(raw)
	if !ok {
		return ErrBadSolution
	}
	a, _ := new(big.Int).SetString(p.A, 10)
	b, _ := new(big.Int).SetString(p.B, 10)
	mod, _ := new(big.Int).SetString(p.P, 10)
	got := new(big.Int).Mul(a, x)
	if got.Mod(got, mod).Cmp(new(big.Int).Mod(b, mod)) != 0 {
		return ErrWrongSolution
	}
	return nil
}

// ParseInteger reads a JSON integer or a canonical decimal string.
func ParseInteger(raw json.RawMessage) (*big.Int, bool) {
	text := string(bytes.TrimSpace(raw))
	if s, err := strconv.Unquote(text); err == nil && len(text) > 0 && text[0] == '"' {
		text = s
	}
	if text == "" || (len(text) > 1 && text[0] == '0') || text[0] == '+' {
		return nil, false
	}
	x, ok := new(big.Int).SetString(text, 10)
	if !ok || x.String() != text {
		return nil, false
	}
	return x, true
}

// verifyDecode: base32-decode, XOR with sha256(bytes(seed_hex)), compare
// with plaintext_hex as bytes (BOUNTY-PUZZLE-DECODE, BOUNTY-BASE32).
func verifyDecode(p Params, plaintextHex string) error {
	got, err := hex.DecodeString(plaintextHex)
	if err != nil || plaintextHex == "" {
		return ErrBadSolution
	}
	if !bytes.Equal(got, DecodePlaintext(p)) {
		return ErrWrongSolution
	}
	return nil
}

// DecodePlaintext solves a decode puzzle.
func DecodePlaintext(p Params) []byte {
	ct := DecodeCipher(p)
	if ct == nil {
		return nil
	}
	return xorDigest(p.SeedHex, ct)
}

// DecodeCipher is the decode puzzle's ciphertext bytes, nil when it is
// not canonical base32.
func DecodeCipher(p Params) []byte {
	ct, err := base32.StdEncoding.DecodeString(p.CiphertextB32)
	if err != nil {
		return nil
	}
	return ct
}

// Solve finds a solution to any puzzle: what an agent (and the runner) does.
func Solve(p Puzzle) Solution {
	switch p.Type {
	case TypeHash:
		prefix, _ := hex.DecodeString(p.Params.PrefixHex)
		return Solution{NonceHex: hex.EncodeToString(SearchNonce(prefix, p.Params.DifficultyBits))}
	case TypeModular:
		return Solution{X: json.RawMessage(strconv.Quote(FermatSolve(p.Params).String()))}
	case TypeDecode:
		return Solution{PlaintextHex: hex.EncodeToString(DecodePlaintext(p.Params))}
	}
	return Solution{}
}

// FermatSolve computes x = b * a^(p-2) mod p.
func FermatSolve(p Params) *big.Int {
	a, _ := new(big.Int).SetString(p.A, 10)
	b, _ := new(big.Int).SetString(p.B, 10)
	mod, _ := new(big.Int).SetString(p.P, 10)
	inv := new(big.Int).Exp(a, new(big.Int).Sub(mod, big.NewInt(2)), mod)
	x := inv.Mul(inv, b)
	return x.Mod(x, mod)
}

// SearchNonce finds the first 8-byte big-endian counter whose digest after
// prefix has bits leading zero bits.
func SearchNonce(prefix []byte, bits int) []byte {
	buf := make([]byte, len(prefix)+8)
	copy(buf, prefix)
	for n := uint64(0); ; n++ {
		for i := 0; i < 8; i++ {
			buf[len(prefix)+i] = byte(n >> (56 - 8*i))
		}
		sum := sha256.Sum256(buf)
		if pow.HasLeadingZeroBits(sum[:], bits) {
			return append([]byte(nil), buf[len(prefix):]...)
		}
	}
}

// RegistrationOK reports whether sha256(utf8(reg_token + nonce)) has at
// least bits leading zero bits (BOUNTY-REG-POW).
func RegistrationOK(token, nonce string, bits int) bool {
	sum := sha256.Sum256([]byte(token + nonce))
	return pow.HasLeadingZeroBits(sum[:], bits)
}

// SolveRegistration finds the smallest decimal nonce for a registration
// token, on every core (reference/pow splits the nonce space; the answer
// is the same on any core count).
func SolveRegistration(token string, bits int) string {
	n, _ := pow.SearchDecimal(context.Background(), token, bits, 0)
	return strconv.FormatUint(n, 10)
}

// ScanRegistration tries the decimal nonces from .. from+count-1 on one
// core and returns the first whose proof holds (BOUNTY-REG-POW).
func ScanRegistration(token string, bits int, from, count uint64) (string, bool) {
	n, ok := pow.ScanDecimal(token, bits, from, count, 1)
	if !ok {
		return "", false
	}
	return strconv.FormatUint(n, 10), true
}
