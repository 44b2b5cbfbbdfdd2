package bounty

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/pow"
)

// shortNonce finds an 8-byte nonce_hex whose digest after the puzzle's
// prefix has exactly difficulty_bits-1 leading zero bits: one past the
// limit of "has >= difficulty_bits leading zero bits"
// (BOUNTY-PUZZLE-HASH), so a verifier counting whole zero bytes or
// holding every rung to the first rung's bits accepts it. A puzzle of no
// difficulty has no such nonce; the kit's wrong solution stands in.
func shortNonce(p bounty.Puzzle) bounty.Solution {
	want := p.Params.DifficultyBits - 1
	prefix, _ := hex.DecodeString(p.Params.PrefixHex)
	buf := make([]byte, len(prefix)+8)
	copy(buf, prefix)
	for n := uint64(0); want >= 0 && n < 1<<32; n++ {
		for i := 0; i < 8; i++ {
			buf[len(buf)-1-i] = byte(n >> (8 * i))
		}
		sum := sha256.Sum256(buf)
		if pow.LeadingZeroBits(sum[:]) == want {
			return bounty.Solution{NonceHex: hex.EncodeToString(buf[len(prefix):])}
		}
	}
	return wrongSolution(p)
}

// editWithBody sends member i's profile edit of a fresh name with body's
// agent_secret fields as they are: none, empty or another agent's, each
// "required to edit your profile" as the agent's own (BOUNTY-PROFILE-SECRET).
func (w *world) editWithBody(ctx context.Context, i int, secret map[string]any) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	body := map[string]any{"agent_id": a.ID, "name": w.uniqueName(ctx)}
	for k, v := range secret {
		body[k] = v
	}
	_, err = w.call(ctx, http.MethodPost, "/agents/profile", body)
	return err
}

// editWithOthersSecret edits member i's profile with member j's
// agent_secret: a secret the platform issued, but not to this agent.
func (w *world) editWithOthersSecret(ctx context.Context, i, j int) error {
	b, err := w.member(j)
	if err != nil {
		return err
	}
	return w.editWithBody(ctx, i, map[string]any{"agent_secret": b.Secret})
}

// newMasterKey: the round a win opens has a "new master key, new puzzles,
// new shares" (BOUNTY-ROTATION), so the key the runner reconstructs from
// the new round's shares differs from the one it reconstructed in the
// closed round. A round whose k shares the runner does not hold leaves
// the key unchecked.
func (w *world) newMasterKey() error {
	before, now := w.earned.keys[w.closed], w.earned.keys[w.cid]
	switch {
	case w.closed == "" || w.closed == w.cid || before == "" || now == "":
		return verdict.Skipf("unchecked: BOUNTY-ROTATION, the runner holds no k shares of both rounds")
	case before == now:
		return verdict.Failf("BOUNTY-ROTATION", "a new master key", "the closed round's key", "the shares of %s reconstruct the key of %s", w.cid, w.closed)
	}
	return nil
}
