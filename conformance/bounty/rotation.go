package bounty

import (
	"context"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// noteWin remembers a challenge the run closed itself with a winning
// combine: a 410 on it afterwards is what the check expects.
func (c *client) noteWin(method, path string, resp *driver.Response) {
	cid, tail, ok := challengeOf(path)
	if ok && method == http.MethodPost && tail == "combine" && resp.Status/100 == 2 {
		if c.closedByRun == nil {
			c.closedByRun = map[string]bool{}
		}
		c.closedByRun[cid] = true
	}
}

// closedUnder turns a 410 on a challenge the run did not close itself
// into a skip when the registry shows the round moved on: on a live
// platform another coalition may win the round under a check ("Winning
// closes the round and opens the next one immediately"; "If your
// challenge_id answers 410, the round you were reading closed"), and
// serve --faults brings exactly that about. A 410 on a challenge the
// registry still names active is left for the check to judge.
func (c *client) closedUnder(ctx context.Context, method, path string, resp *driver.Response) error {
	cid, _, ok := challengeOf(path)
	if !ok || resp.Status != http.StatusGone || c.closedByRun[cid] {
		return nil
	}
	reg, err := c.env.HTTP.Do(ctx, driver.Request{Method: http.MethodGet, Path: "/challenges"})
	if err != nil {
		return err
	}
	var out struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
		} `json:"active"`
	}
	if reg.Status/100 != 2 || reg.Decode("BOUNTY-REGISTRY", &out) != nil || out.Active.ChallengeID == "" || out.Active.ChallengeID == cid {
		return nil
	}
	return verdict.Skipf("the round closed under the check: %s %s answered 410 and the registry names %s (another coalition won; BOUNTY-STALE-410)",
		method, path, out.Active.ChallengeID)
}

// challengeOf splits /challenge/{cid}/{tail...}.
func challengeOf(path string) (cid, tail string, ok bool) {
	rest, ok := strings.CutPrefix(path, "/challenge/")
	if !ok {
		return "", "", false
	}
	cid, tail, _ = strings.Cut(rest, "/")
	tail, _, _ = strings.Cut(tail, "?")
	return cid, tail, cid != ""
}

// closedSolve is the solve closedAnswers410 sends the closed round: a
// correct solution of its share 1, from the manifest the runner read
// while it was open, since a wrong one is refused by any platform and
// proves nothing about "a closed round accepts no solve"
// (BOUNTY-STALE-410). Without that manifest it falls back to a wrong one.
func (w *world) closedSolve(a agent) map[string]any {
	if p, err := w.man.puzzleOf(1); err == nil && w.man.ChallengeID == w.closed {
		return solveBody(a, 1, bountysolve.Puzzle(p))
	}
	return solveBody(a, 2, bounty.Solution{PlaintextHex: "00"})
}
