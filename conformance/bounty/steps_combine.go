package bounty

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

func (w *world) combineSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the team combines "([^"]*)"$`), func(ctx context.Context, pairs string) error { return w.combine(ctx, pairs, 0) })
	sc.Step(pattern(`^the team combines "([^"]*)" with share (\d+) corrupted$`), w.combine)
	sc.Step(pattern(`^the combine is refused and the round stays open$`), w.combineRefused)
	sc.Step(pattern(`^the round stays open$`), w.roundOpen)
	sc.Step(pattern(`^the combine wins$`), w.combineWon)
	sc.Step(pattern(`^the payout splits (\d+) across agents (.+) only$`), w.payoutSplits)
	sc.Step(pattern(`^the payout is an equal split with the remainder to the lowest agent_ids$`), w.equalSplit)
	sc.Step(pattern(`^the ledger records the payout$`), w.ledgerRecords)
	sc.Step(pattern(`^the manifest's bounty is PLAY with real_money false$`), w.manifestPlayMoney)
	sc.Step(pattern(`^the ledger's currency is PLAY with no real money$`), w.ledgerPlayMoney)
}

// combine submits (member, share) pairs with the shares the team holds,
// optionally with one share's first y byte flipped.
func (w *world) combine(ctx context.Context, pairs string, corrupt int) error {
	list, err := parsePairs(pairs)
	if err != nil {
		return verdict.Errorf("%v", err)
	}
	var subs []bounty.Submission
	for _, p := range list {
		a, err := w.member(p[0])
		if err != nil {
			return err
		}
		h, ok := w.shareHex[p[1]]
		if !ok {
			return verdict.Errorf("nobody in the team solved share %d", p[1])
		}
		if p[1] == corrupt {
			b, _ := hex.DecodeString(h)
			b[0] ^= 0xff
			h = hex.EncodeToString(b)
		}
		subs = append(subs, bounty.Submission{AgentID: a.ID, ShareIndex: p[1], ShareHex: h})
	}
	resp, err := w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/combine", map[string]any{"submissions": subs})
	if err == nil && resp.Status == http.StatusOK {
		w.won, w.closed = raw(resp), w.cid
	}
	return err
}

// combineRefused: a 4xx, no payout, and the registry still names this
// round (the scenario's MUST rule).
func (w *world) combineRefused(ctx context.Context) error {
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule, "a 4xx refusal", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return w.roundOpen(ctx)
}

func (w *world) roundOpen(ctx context.Context) error {
	if w.won != nil {
		return verdict.Failf(w.rule, "no win", "a win", "%v", w.won)
	}
	cid, _, err := w.live(ctx)
	if err != nil {
		return err
	}
	if cid != w.cid {
		return verdict.Failf(w.rule, "the round still open", "the round rotated to "+cid, "a refused combine must change nothing")
	}
	return nil
}

func (w *world) combineWon() error {
	if w.won == nil {
		return verdict.Failf("BOUNTY-PAYOUT", "200: a coalition of k credited solvers wins", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// payouts reads the winning answer's payouts by agent_id.
func (w *world) payouts() map[string]int {
	out := map[string]int{}
	if m, ok := w.won["payouts"].(map[string]any); ok {
		for id, v := range m {
			if f, ok := v.(float64); ok {
				out[id] = int(f)
			}
		}
	}
	return out
}

// payoutSplits: the amount goes to the named members and nobody else
// (BOUNTY-PAYOUT).
func (w *world) payoutSplits(amount int, who string) error {
	want := map[string]bool{}
	for _, f := range strings.FieldsFunc(who, func(r rune) bool { return r == ',' || r == ' ' }) {
		if i, err := strconv.Atoi(f); err == nil {
			a, err := w.member(i)
			if err != nil {
				return err
			}
			want[a.ID] = true
		}
	}
	got := w.payouts()
	total := 0
	for id, v := range got {
		if !want[id] {
			return verdict.Failf("BOUNTY-PAYOUT", "payouts to the credited agents only", got, "%s was paid", id)
		}
		total += v
	}
	if total != amount || len(got) != len(want) {
		return verdict.Failf("BOUNTY-PAYOUT", fmt.Sprintf("%d across %d agents", amount, len(want)), got, "")
	}
	return nil
}

func (w *world) equalSplit() error {
	got := w.payouts()
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return verdict.Failf("BOUNTY-PAYOUT-SPLIT", "payouts", "none", "")
	}
	base, rest := bounty.BountyAmount/len(ids), bounty.BountyAmount%len(ids)
	for i, id := range ids {
		want := base
		if i < rest {
			want++
		}
		if got[id] != want {
			return verdict.Failf("BOUNTY-PAYOUT-SPLIT", want, got[id], "%s", id)
		}
	}
	return nil
}

type ledgerDoc struct {
	Currency  string `json:"currency"`
	RealMoney *bool  `json:"real_money"`
	Payouts   []struct {
		ChallengeID string `json:"challenge_id"`
		AgentID     string `json:"agent_id"`
		Amount      int    `json:"amount"`
	} `json:"payouts"`
}

func (w *world) ledger(ctx context.Context, rule string) (ledgerDoc, error) {
	var l ledgerDoc
	err := w.want2xx(ctx, rule, http.MethodGet, "/ledger", nil, &l)
	return l, err
}

// ledgerRecords finds every payout of the win in the ledger (BOUNTY-LEDGER).
func (w *world) ledgerRecords(ctx context.Context) error {
	l, err := w.ledger(ctx, "BOUNTY-LEDGER")
	if err != nil {
		return err
	}
	for id, amount := range w.payouts() {
		found := false
		for _, p := range l.Payouts {
			found = found || (p.AgentID == id && p.Amount == amount && p.ChallengeID == w.closed)
		}
		if !found {
			return verdict.Failf("BOUNTY-LEDGER", fmt.Sprintf("%s paid %d in %s", id, amount, w.closed), "no such ledger line", "")
		}
	}
	return nil
}

func (w *world) manifestPlayMoney() error {
	b := w.man.Bounty
	if b.Currency != bounty.Currency || b.RealMoney == nil || *b.RealMoney {
		return verdict.Failf("BOUNTY-PLAY-MONEY", "currency PLAY, real_money false", b, "manifest bounty")
	}
	return nil
}

func (w *world) ledgerPlayMoney(ctx context.Context) error {
	if bytes.Contains(w.Last.Body, []byte(`"real_money":true`)) {
		return verdict.Failf("BOUNTY-PLAY-MONEY", "real_money false", "real_money true", "combine answer")
	}
	l, err := w.ledger(ctx, "BOUNTY-PLAY-MONEY")
	if err != nil {
		return err
	}
	if l.Currency != bounty.Currency || (l.RealMoney != nil && *l.RealMoney) {
		return verdict.Failf("BOUNTY-PLAY-MONEY", "PLAY, no real money", l.Currency, "ledger")
	}
	return nil
}
