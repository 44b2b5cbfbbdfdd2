package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// raceCombines sends the same correct submission n times at once, as n
// members of one coalition racing each other would ("k racing submissions
// produce one win and k-1 already_solved rejections"), and keeps every
// answer for combineRaceSettled. The race is played over HTTP whatever the
// transport: the point is concurrency, not the surface.
func (w *world) raceCombines(ctx context.Context, n int, pairs string) error {
	subs, err := w.submissions(pairs, 0)
	if err != nil {
		return err
	}
	path := "/challenge/" + w.cid + "/combine"
	w.race = make([]*driver.Response, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.race[i], errs[i] = w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: path, JSON: map[string]any{"submissions": subs}})
		}()
	}
	wg.Wait()
	for i, resp := range w.race {
		if errs[i] != nil {
			return errs[i]
		}
		w.Last = resp
		w.noteWin(http.MethodPost, path, resp)
		if resp.Status/100 == 2 {
			w.won, w.closed = raw(resp), w.cid
		}
	}
	return nil
}

// combineRaceSettled: exactly one racing combine won and every other one
// was refused with code already_solved (BOUNTY-COMBINE-RACE); the status
// of a refusal is not fixed by the contract, any 4xx does.
func (w *world) combineRaceSettled() error {
	wins := 0
	for _, resp := range w.race {
		if resp.Status/100 == 2 {
			wins++
			continue
		}
		var r refusal
		_ = json.Unmarshal(resp.Body, &r)
		if resp.Status/100 != 4 || r.Code != "already_solved" {
			return verdict.Failf("BOUNTY-COMBINE-RACE", "a 4xx already_solved for every combine that lost the race", fmt.Sprintf("%d %s", resp.Status, r.Code), "%s", w.clip(resp.Body))
		}
	}
	if wins != 1 {
		return verdict.Failf("BOUNTY-COMBINE-RACE", "exactly one winning combine", wins, "of %d racing combines of one round", len(w.race))
	}
	return nil
}

// roundPaidOnce: the ledger pays the raced round to the coalition once,
// 1000 in all (BOUNTY-COMBINE-RACE). The ledger's shape is the kit's
// choice (BOUNTY-LEDGER): a ledger the runner finds no line of the round
// in is noted against that choice and decides nothing here.
func (w *world) roundPaidOnce(ctx context.Context) error {
	resp, err := w.call(ctx, http.MethodGet, "/ledger", nil)
	if err != nil {
		return err
	}
	var l ledgerDoc
	_ = json.Unmarshal(resp.Body, &l)
	total, lines := 0, 0
	for _, p := range l.Payouts {
		if p.ChallengeID == w.closed {
			total += p.Amount
			lines++
		}
	}
	if lines == 0 {
		w.note("BOUNTY-LEDGER", "ledger lines {challenge_id, agent_id, amount} of "+w.closed, w.clip(resp.Body), "the raced round's payouts")
		return nil
	}
	if total != bounty.BountyAmount || lines > len(w.team) {
		return verdict.Failf("BOUNTY-COMBINE-RACE", fmt.Sprintf("one payout of %d for %s", bounty.BountyAmount, w.closed), fmt.Sprintf("%d over %d ledger lines", total, lines), "")
	}
	return nil
}

// refusedWithCode: the last combine was refused (any 4xx) with the code
// the contract names, and the round is still open (the scenario's rule).
func (w *world) refusedWithCode(ctx context.Context, code string) error {
	var r refusal
	_ = json.Unmarshal(w.Last.Body, &r)
	if w.Last.Status/100 != 4 || r.Code != code {
		return verdict.Failf(w.rule, "a 4xx "+code, fmt.Sprintf("%d %s", w.Last.Status, r.Code), "%s", w.clip(w.Last.Body))
	}
	return w.roundOpen(ctx)
}

// correctedWins: after a refused attempt, the coalition's corrected
// combine wins: a refusal changes nothing (the scenario's rule).
func (w *world) correctedWins() error {
	if w.won == nil {
		return verdict.Failf(w.rule, "the corrected combine wins", fmt.Sprintf("%d", w.Last.Status), "a refused combine must cost the coalition nothing: %s", w.clip(w.Last.Body))
	}
	return nil
}
