package bounty

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/pow"
)

// slowCombine is an independent interpolation written with the
// shift-and-reduce multiplication and Fermat inversion (a^254), sharing no
// table with the engine.
func slowCombine(shares [][]byte) []byte {
	inv := func(a byte) byte {
		r := byte(1)
		for i := 0; i < 254; i++ {
			r = gfMulSlow(r, a)
		}
		return r
	}
	n := len(shares[0]) - 1
	out := make([]byte, n)
	for i, si := range shares {
		w := byte(1)
		for m, sm := range shares {
			if m != i {
				w = gfMulSlow(w, gfMulSlow(sm[n], inv(si[n]^sm[n])))
			}
		}
		for j := 0; j < n; j++ {
			out[j] ^= gfMulSlow(w, si[j])
		}
	}
	return out
}

func TestShamirRoundTripsAnyKSubset(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		secret := rapid.SliceOfN(rapid.Byte(), 1, 40).Draw(t, "secret")
		n := rapid.IntRange(2, 12).Draw(t, "n")
		k := rapid.IntRange(2, n).Draw(t, "k")
		xs := rapid.SliceOfNDistinct(rapid.ByteRange(1, 255), n, n, rapid.ID[byte]).Draw(t, "xs")
		shares, err := Split(secret, k, xs, rand.New(rand.NewSource(rapid.Int64().Draw(t, "seed"))))
		require.NoError(t, err)
		perm := rand.New(rand.NewSource(int64(n))).Perm(n)[:k]
		var subset [][]byte
		for _, i := range perm {
			subset = append(subset, shares[i])
			assert.Equal(t, xs[i], shares[i][len(secret)], "the x byte comes last")
		}
		got, err := Combine(subset)
		require.NoError(t, err)
		assert.Equal(t, secret, got)
		assert.Equal(t, secret, slowCombine(subset), "an independent interpolation agrees")
	})
}

func TestShamirFewerThanKSharesDoNotReconstruct(t *testing.T) {
	secret := bytes.Repeat([]byte{0x5a}, 32)
	shares, err := Split(secret, 3, []byte{1, 2, 3, 4, 5}, rand.New(rand.NewSource(1)))
	require.NoError(t, err)
	got, err := Combine(shares[:2])
	require.NoError(t, err)
	assert.NotEqual(t, secret, got)
}

func TestShamirRejectsMalformedSets(t *testing.T) {
	shares, _ := Split([]byte("key"), 2, []byte{1, 2, 3}, rand.New(rand.NewSource(1)))
	zero := append([]byte(nil), shares[0]...)
	zero[3] = 0
	for want, set := range map[error][][]byte{
		ErrTooFewShares: {shares[0]},
		ErrDuplicateX:   {shares[0], shares[0]},
		ErrZeroX:        {zero, shares[1]},
		ErrMixedLengths: {shares[0], shares[1][:3]},
	} {
		_, err := Combine(set)
		assert.ErrorIs(t, err, want)
	}
	_, err := Split([]byte("k"), 2, []byte{0, 1}, rand.New(rand.NewSource(1)))
	assert.ErrorIs(t, err, ErrZeroX)
}

func TestPuzzlesSolveAndVerify(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	for _, r := range Ladder {
		p := NewPuzzle(r, rnd)
		require.NoError(t, Verify(p, Solve(p)), "share %d", r.ShareIndex)
	}
	hash := NewPuzzle(Ladder[0], rnd)
	sol := Solve(hash)
	prefix, _ := hex.DecodeString(hash.Params.PrefixHex)
	nonce, _ := hex.DecodeString(sol.NonceHex)
	sum := sha256.Sum256(append(prefix, nonce...))
	assert.True(t, pow.HasLeadingZeroBits(sum[:], 12))
	assert.ErrorIs(t, Verify(hash, Solution{NonceHex: "zz"}), ErrBadSolution)

	mod := NewPuzzle(Ladder[1], rnd)
	x := FermatSolve(mod.Params)
	assert.NoError(t, Verify(mod, Solution{X: json.RawMessage(x.String())}), "a JSON integer is read too")
	assert.ErrorIs(t, Verify(mod, Solution{X: json.RawMessage(`"0` + x.String() + `"`)}), ErrBadSolution, "leading zero is not canonical")
	x.Add(x, x)
	assert.ErrorIs(t, Verify(mod, Solution{X: json.RawMessage(`"` + x.String() + `"`)}), ErrWrongSolution)

	dec := NewPuzzle(Ladder[2], rnd)
	plain := DecodePlaintext(dec.Params)
	assert.Len(t, plain, PlaintextLen)
	plain[0] ^= 1
	assert.ErrorIs(t, Verify(dec, Solution{PlaintextHex: hex.EncodeToString(plain)}), ErrWrongSolution)
}

func TestRegistrationProof(t *testing.T) {
	nonce := SolveRegistration("tok-1", 10)
	assert.True(t, RegistrationOK("tok-1", nonce, 10))
	sum := sha256.Sum256([]byte("tok-1" + nonce))
	assert.GreaterOrEqual(t, pow.LeadingZeroBits(sum[:]), 10)
}

func FuzzCombine(f *testing.F) {
	shares, _ := Split([]byte("seed-secret"), 2, []byte{1, 2}, rand.New(rand.NewSource(1)))
	f.Add(shares[0], shares[1])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		got, err := Combine([][]byte{a, b})
		if err == nil && len(got) != len(a)-1 {
			t.Fatalf("secret of %d bytes from %d-byte shares", len(got), len(a))
		}
	})
}

func FuzzParseInteger(f *testing.F) {
	for _, s := range []string{`12`, `"12"`, `"012"`, `-3`, `"1e3"`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, ok := ParseInteger(json.RawMessage(s))
		if ok && x == nil {
			t.Fatal("ok without a value")
		}
	})
}

func FuzzParseListRequest(f *testing.F) {
	for _, s := range []string{`{"agent_id":"a","contact":"https://x","working_on":2}`, `{"agent_id":"a","working_on":null}`, `{"remove":true}`, `{"working_on":"2"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var raw map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &raw) != nil {
			return
		}
		req, err := ParseListRequest(raw)
		if err == nil && req.Clear && req.WorkingOn != nil {
			t.Fatal("working_on both cleared and set")
		}
		if err != nil && (err.Status != 400 || err.Code != "bad_request") {
			t.Fatalf("refusal %+v", err)
		}
	})
}
