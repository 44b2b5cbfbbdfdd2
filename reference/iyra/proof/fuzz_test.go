package proof_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/iyra/proof"
	"github.com/agentgames/conformance/vectors"
)

// FuzzVerify: no proof string, challenge or difficulty makes Verify panic,
// and a solution Verify accepts is canonical and meets the difficulty.
// Seeds: the proof vectors.
func FuzzVerify(f *testing.F) {
	files, err := vectors.Load("iyra")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		if file.Kind != "proof" {
			continue
		}
		for _, v := range file.Vectors {
			var in struct {
				Challenge  string `json:"challenge"`
				Difficulty int    `json:"difficulty"`
				Solution   string `json:"solution"`
			}
			if json.Unmarshal(v.Input, &in) == nil {
				f.Add(in.Challenge, in.Difficulty, in.Solution)
			}
		}
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, challenge string, difficulty int, solution string) {
		err := proof.Verify(challenge, difficulty, now.Add(time.Minute), now, solution)
		if err != nil {
			return
		}
		if !proof.Canonical(solution) || !proof.Meets(proof.Digest(challenge, solution), difficulty) {
			t.Fatalf("accepted %q for %q at difficulty %d", solution, challenge, difficulty)
		}
	})
}
