package bounty

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/pow"
)

func (w *world) registerWith(ctx context.Context, nonce string) error {
	resp, err := w.call(ctx, http.MethodPost, "/register", map[string]string{"reg_token": w.reg.Token, "nonce": nonce})
	if err != nil {
		return err
	}
	w.regOut = raw(resp)
	if s, ok := w.regOut["agent_secret"].(string); ok {
		w.secrets = append(w.secrets, s)
	}
	return nil
}

// exactNonce finds a nonce whose digest has exactly bits leading zero
// bits: bits-1 is a proof that would pass if difficulty were counted
// loosely, bits the least proof that meets it, which a platform counting
// "more than" where the seed says "at least" refuses.
func exactNonce(token string, bits int) string {
	for n := 0; ; n++ {
		nonce := "exact" + strconv.Itoa(n)
		sum := sha256.Sum256([]byte(token + nonce))
		if pow.LeadingZeroBits(sum[:]) == bits {
			return nonce
		}
	}
}

// anyNonce finds a registration nonce meeting bits that holds a space,
// punctuation and letters of two and four UTF-8 bytes: "nonce is any
// string", hashed as utf8(reg_token + nonce) (BOUNTY-REG-POW), so a
// platform that admits only a token alphabet refuses a valid proof.
func anyNonce(token string, bits int) string {
	for n := 0; ; n++ {
		nonce := "any nonce/é𐐷:" + strconv.Itoa(n)
		sum := sha256.Sum256([]byte(token + nonce))
		if pow.LeadingZeroBits(sum[:]) >= bits {
			return nonce
		}
	}
}

// hashNonce finds a nonce_hex of size bytes whose digest after the
// puzzle's prefix has exactly the difficulty's leading zero bits, or at
// least them when exact is false: the least proof the seed accepts, and a
// nonce of another length than the kit's 8-byte counter ("nonce_hex: hex
// string", BOUNTY-PUZZLE-HASH).
func hashNonce(p bounty.Puzzle, size int, exact bool) bounty.Solution {
	prefix, _ := hex.DecodeString(p.Params.PrefixHex)
	buf := make([]byte, len(prefix)+size)
	copy(buf, prefix)
	for n := uint64(0); n < 1<<(8*min(size, 7)); n++ {
		for i := 0; i < size; i++ {
			buf[len(buf)-1-i] = byte(n >> (8 * i))
		}
		sum := sha256.Sum256(buf)
		if z := pow.LeadingZeroBits(sum[:]); z == p.Params.DifficultyBits || (!exact && z > p.Params.DifficultyBits) {
			return bounty.Solution{NonceHex: hex.EncodeToString(buf[len(prefix):])}
		}
	}
	return bountysolve.Puzzle(p)
}

// capitalNonce finds an 8-byte nonce meeting the puzzle's difficulty
// whose hex holds a letter, and writes it in capitals: "nonce_hex: hex
// string" and bytes(nonce_hex) are the same bytes in either case, so a
// platform matching only lower-case digits refuses a valid proof
// (BOUNTY-PUZZLE-HASH).
func capitalNonce(p bounty.Puzzle) bounty.Solution {
	prefix, _ := hex.DecodeString(p.Params.PrefixHex)
	buf := make([]byte, len(prefix)+8)
	copy(buf, prefix)
	for n := uint64(0xa0); n < 1<<40; n++ {
		binary.BigEndian.PutUint64(buf[len(prefix):], n)
		sum := sha256.Sum256(buf)
		h := hex.EncodeToString(buf[len(prefix):])
		if pow.LeadingZeroBits(sum[:]) >= p.Params.DifficultyBits && strings.ContainsAny(h, "abcdef") {
			return bounty.Solution{NonceHex: strings.ToUpper(h)}
		}
	}
	return bountysolve.Puzzle(p)
}

func (w *world) soloSolve(ctx context.Context, s int, solver func(bounty.Puzzle) bounty.Solution) error {
	p, err := w.man.puzzleOf(s)
	if err != nil {
		return err
	}
	sol := bountysolve.Puzzle(p)
	if solver != nil {
		sol = solver(p)
	}
	resp, err := w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/solve", solveBody(w.team[0], s, sol))
	if err == nil && resp.Status/100 == 2 {
		w.held[w.team[0].ID] = append(w.held[w.team[0].ID], s)
		if h, ok := raw(resp)["share_hex"].(string); ok {
			w.shareHex[s] = h
		}
	}
	return err
}

func subsets(n, k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for i := k - 1; i < n; i++ {
		for _, s := range subsets(i, k-1) {
			out = append(out, append(append([]int(nil), s...), i))
		}
	}
	return out
}

func pick(shares [][]byte, idx []int) [][]byte {
	out := make([][]byte, len(idx))
	for i, j := range idx {
		out[i] = shares[j]
	}
	return out
}
