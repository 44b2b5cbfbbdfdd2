package bounty

import (
	"bytes"
	"context"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strconv"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

func (w *world) onePuzzlePerShare() error {
	n := w.man.Threshold.N
	seen := map[int]bool{}
	for _, p := range w.man.Puzzles {
		seen[p.ShareIndex] = true
	}
	for i := 1; i <= n; i++ {
		if !seen[i] {
			return verdict.Failf("BOUNTY-MANIFEST", fmt.Sprintf("a puzzle for every share 1..%d", n), len(w.man.Puzzles), "share %d has none", i)
		}
	}
	return nil
}

func (w *world) puzzleEndpointsAgree(ctx context.Context) error {
	for _, want := range w.man.Puzzles {
		var got bounty.Puzzle
		if err := w.want2xx(ctx, "BOUNTY-MANIFEST", http.MethodGet, fmt.Sprintf("/challenge/%s/puzzle/%d", w.cid, want.ShareIndex), nil, &got); err != nil {
			return err
		}
		if got.Type != want.Type || got.Params != want.Params {
			return verdict.Failf("BOUNTY-MANIFEST", want, got, "puzzle %d", want.ShareIndex)
		}
	}
	return nil
}

func (w *world) thresholdIs(k, n int) error {
	if w.man.Threshold.K != k || w.man.Threshold.N != n {
		return verdict.Failf("BOUNTY-THRESHOLD", fmt.Sprintf("k %d n %d", k, n), fmt.Sprintf("k %d n %d", w.man.Threshold.K, w.man.Threshold.N), "manifest threshold")
	}
	return nil
}

func (w *world) ladderHolds() error {
	for _, rung := range bounty.Ladder {
		p, err := w.man.puzzleOf(rung.ShareIndex)
		if err != nil {
			return err
		}
		if p.Type != rung.Type || (rung.Type == bounty.TypeHash && p.Params.DifficultyBits != rung.DifficultyBits) {
			return verdict.Failf("BOUNTY-LADDER", fmt.Sprintf("%s %d bits", rung.Type, rung.DifficultyBits), fmt.Sprintf("%s %d bits", p.Type, p.Params.DifficultyBits), "share %d", rung.ShareIndex)
		}
	}
	return nil
}

// soloAgent registers one agent in the live round (no rotation: solving
// leaves holdings, which no later scenario relies on).
func (w *world) soloAgent(ctx context.Context) error {
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	a, err := w.register(ctx)
	w.team = []agent{a}
	return err
}

func (w *world) solveUnknownShare(ctx context.Context, s int) error {
	_, err := w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/solve", solveBody(w.team[0], s, bounty.Solution{PlaintextHex: "00"}))
	return err
}

func (w *world) strangerSolves(ctx context.Context, s int) error {
	p, err := w.man.puzzleOf(s)
	if err != nil {
		return err
	}
	_, err = w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/solve", solveBody(agent{ID: "agent-never-registered"}, s, bountysolve.Puzzle(p)))
	return err
}

func (w *world) solveAccepted() error {
	h, _ := raw(w.Last)["share_hex"].(string)
	if w.Last.Status/100 != 2 || h == "" {
		return verdict.Failf(w.rule, "200 {share_hex}", w.Last.Status, "a correct solution: %s", w.clip(w.Last.Body))
	}
	return nil
}

// solveRefused: a wrong solution is refused (a 4xx) and earns no share
// (BOUNTY-SOLVE-SHARE). What "no share" is, is a share_hex with a value:
// a refusal's text may name the field and a null or empty share_hex
// carries nothing, so neither is a finding.
func (w *world) solveRefused() error {
	var doc any
	_ = json.Unmarshal(w.Last.Body, &doc)
	if w.Last.Status/100 != 4 || carriesShareHex(doc) {
		return verdict.Failf(w.rule, "a 4xx refusal without share_hex", w.Last.Status, "a wrong solution: %s", w.clip(w.Last.Body))
	}
	return nil
}

// modularStrings notes modular params that are not decimal strings
// (BOUNTY-INTEGERS, the kit's choice) and lets the scenario go on to the
// solve the contract fixes.
func (w *world) modularStrings() error {
	for _, p := range w.man.Puzzles {
		if p.Type == bounty.TypeModular {
			if _, ok := bounty.ParseInteger(json.RawMessage(strconv.Quote(p.Params.P))); !ok {
				w.note("BOUNTY-INTEGERS", "p as a decimal string", p.Params.P, "share %d", p.ShareIndex)
				return nil
			}
		}
	}
	return nil
}

func (w *world) canonicalBase32() error {
	p, err := w.man.puzzleOf(3)
	if err != nil {
		return err
	}
	ct, err := base32.StdEncoding.DecodeString(p.Params.CiphertextB32)
	if err != nil || base32.StdEncoding.EncodeToString(ct) != p.Params.CiphertextB32 || len(ct) != bounty.PlaintextLen {
		return verdict.Failf("BOUNTY-BASE32", "canonical padded base32 of 20 bytes", p.Params.CiphertextB32, "")
	}
	return nil
}

// shareLayout: 33 bytes, the last one the share index (BOUNTY-SHARE-LAYOUT).
func (w *world) shareLayout() error {
	h, _ := raw(w.Last)["share_hex"].(string)
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != bounty.KeyLen+1 || int(b[len(b)-1]) != 2 {
		return verdict.Failf("BOUNTY-SHARE-LAYOUT", "33 bytes ending in 02", h, "")
	}
	return nil
}

// shamirConsistent combines every k-subset of the solved shares: all must
// give one secret, and k-1 shares must not (BOUNTY-SHAMIR). A deployment
// whose shares are not the kit's layout cannot be interpolated here.
func (w *world) shamirConsistent(k, fewer int) error {
	var shares [][]byte
	for _, h := range w.shareHex {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) < 2 {
			return verdict.Skipf("unchecked: share_hex %q is not the kit's layout (BOUNTY-SHARE-LAYOUT)", h)
		}
		shares = append(shares, b)
	}
	var first []byte
	for _, subset := range subsets(len(shares), k) {
		got, err := bounty.Combine(pick(shares, subset))
		if err != nil {
			return verdict.Skipf("unchecked: shares are not the kit's layout: %v", err)
		}
		if first == nil {
			first = got
		} else if !bytes.Equal(first, got) {
			return verdict.Failf("BOUNTY-SHAMIR", "every k shares reconstruct one key", "two k-subsets disagree", "")
		}
	}
	for _, subset := range subsets(len(shares), fewer) {
		got, _ := bounty.Combine(pick(shares, subset))
		if bytes.Equal(first, got) {
			return verdict.Failf("BOUNTY-SHAMIR", "k-1 shares reconstruct nothing", "k-1 shares gave the key", "")
		}
	}
	return nil
}

// puzzlesSteps registers the steps of features/bounty/puzzles.feature.
func (w *world) puzzlesSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the manifest lists one puzzle per share 1\.\.n$`), w.onePuzzlePerShare)
	sc.Step(pattern(`^every puzzle endpoint serves the manifest's params$`), w.puzzleEndpointsAgree)
	sc.Step(pattern(`^the round's threshold is k (\d+) and n (\d+)$`), w.thresholdIs)
	sc.Step(pattern(`^every puzzle has the type and difficulty_bits of its ladder rung$`), w.ladderHolds)
	sc.Step(pattern(`^a registered agent in the live challenge$`), w.soloAgent)
	sc.Step(pattern(`^the agent solves share (\d+) correctly$`), func(ctx context.Context, s int) error { return w.soloSolve(ctx, s, nil) })
	sc.Step(pattern(`^the agent submits a wrong solution for share (\d+)$`), func(ctx context.Context, s int) error { return w.submitWrong(ctx, w.team[0], s) })
	sc.Step(pattern(`^the agent solves share (\d+) with x as a JSON integer$`), func(ctx context.Context, s int) error {
		return w.soloSolve(ctx, s, func(p bounty.Puzzle) bounty.Solution {
			return bounty.Solution{X: json.RawMessage(bounty.FermatSolve(p.Params).String())}
		})
	})
	sc.Step(pattern(`^the agent solves share (\d+) with a nonce of exactly the difficulty$`), func(ctx context.Context, s int) error {
		return w.soloSolve(ctx, s, func(p bounty.Puzzle) bounty.Solution { return hashNonce(p, 8, true) })
	})
	sc.Step(pattern(`^the agent solves share (\d+) with a nonce one bit short of the difficulty$`), func(ctx context.Context, s int) error {
		return w.soloSolve(ctx, s, shortNonce)
	})
	sc.Step(pattern(`^the agent solves share (\d+) with a 3-byte nonce$`), func(ctx context.Context, s int) error {
		return w.soloSolve(ctx, s, func(p bounty.Puzzle) bounty.Solution { return hashNonce(p, 3, false) })
	})
	sc.Step(pattern(`^the agent solves share (\d+) with a nonce_hex in capitals$`), func(ctx context.Context, s int) error {
		return w.soloSolve(ctx, s, capitalNonce)
	})
	sc.Step(pattern(`^the agent solves share (\d+) with x plus p$`), func(ctx context.Context, s int) error {
		return w.soloSolve(ctx, s, congruentSolution)
	})
	sc.Step(pattern(`^the agent solves share (\d+)$`), w.solveUnknownShare)
	sc.Step(pattern(`^an unregistered agent_id solves share (\d+)$`), w.strangerSolves)
	sc.Step(pattern(`^the solve is accepted with a share_hex$`), w.solveAccepted)
	sc.Step(pattern(`^the solve is refused without a share$`), w.solveRefused)
	sc.Step(pattern(`^the modular params are decimal strings$`), w.modularStrings)
	sc.Step(pattern(`^the decode ciphertext is canonical base32 of 20 bytes$`), w.canonicalBase32)
	sc.Step(pattern(`^the board shows the agent holding no share$`), func(ctx context.Context) error { return w.boardHolding(ctx, 1, "") })
	sc.Step(pattern(`^the share_hex is 33 bytes ending in the share index$`), w.shareLayout)
	sc.Step(pattern(`^every (\d+) of the shares reconstruct the same secret and (\d+) do not$`), w.shamirConsistent)
}

// congruentSolution is the Fermat solution plus p: not the canonical
// residue, but a*x mod p == b all the same (BOUNTY-PUZZLE-MODULAR), in
// the encoding the canonical solve uses.
func congruentSolution(p bounty.Puzzle) bounty.Solution {
	x := bounty.FermatSolve(p.Params)
	mod, _ := new(big.Int).SetString(p.Params.P, 10)
	if mod != nil {
		x.Add(x, mod)
	}
	return bounty.Solution{X: json.RawMessage(strconv.Quote(x.String()))}
}

// carriesShareHex reports whether a JSON document holds, at any depth, a
// share_hex member whose value is a non-empty string.
func carriesShareHex(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if s, ok := c.(string); ok && k == "share_hex" && s != "" {
				return true
			}
			if carriesShareHex(c) {
				return true
			}
		}
	case []any:
		for _, c := range t {
			if carriesShareHex(c) {
				return true
			}
		}
	}
	return false
}
