package shareexchange

import (
	"context"
	"encoding/json"
	"fmt"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// pullRules are the MUST rules the pull property can break.
var pullRules = []string{"SX-RELEASE", "SX-STALE", "SX-NOT-HELD", "SX-SELF", "SX-UNLISTED", "SX-NOT-COMBINABLE", "SX-NOT-BROKER", "SX-BAD-REQUEST"}

// pullAction is one random PULL: who asks, for which share, and whether it
// names the live challenge and the right protocol.
type pullAction struct {
	Requester string `json:"requester"` // broker, other, unlisted, holder
	Share     int    `json:"share"`
	Stale     bool   `json:"stale,omitempty"`
	Protocol  string `json:"protocol"`
}

// pullMachine sends random PULLs to the responder's holder on a combinable
// board and requires the status and code the release rule gives on that
// board (SX-CODE-ORDER decides between several failing conditions only as
// a warning).
type pullMachine struct{ w *world }

func pullProperty() suite.Property {
	return suite.Property{Name: "random pulls answered by the release rule", Rules: pullRules,
		New: func(ctx context.Context, env *suite.Env) (suite.Machine, error) {
			w := &world{env: env, hex: map[string]map[int]string{}}
			if err := w.setup(ctx, true, combinable); err != nil {
				return nil, err
			}
			return &pullMachine{w: w}, nil
		}}
}

func (m *pullMachine) Draw(t *rapid.T) suite.Action {
	a := pullAction{Requester: rapid.SampledFrom([]string{"broker", "other", "unlisted", "holder"}).Draw(t, "requester"),
		Share: rapid.IntRange(1, 5).Draw(t, "share"), Stale: rapid.Bool().Draw(t, "stale"),
		Protocol: rapid.SampledFrom([]string{rsx.Protocol, rsx.Protocol, "abp-share-exchange/0"}).Draw(t, "protocol")}
	raw, _ := json.Marshal(a)
	return raw
}

func (m *pullMachine) Apply(ctx context.Context, raw suite.Action) error {
	var a pullAction
	if err := json.Unmarshal(raw, &a); err != nil {
		return verdict.Errorf("bad action %s", raw)
	}
	w := m.w
	who := map[string]string{"broker": w.broker, "other": w.other, "unlisted": w.unlisted, "holder": w.mine}[a.Requester]
	cid := ""
	if a.Stale {
		cid = "chal-not-the-live-round"
	}
	if err := w.pull(ctx, who, a.Share, cid, a.Protocol); err != nil {
		return err
	}
	pull := rsx.Pull{Protocol: a.Protocol, ChallengeID: orLive(cid, w.p.cid), Requester: who, AgentID: w.mine, ShareIndex: a.Share}
	want := rsx.Release(w.snapshot(), []int{2}, pull)
	failing := failingConditions(w.snapshot(), pull)
	if w.Last.Status == want.Status && w.body["code"] == want.Code {
		return nil
	}
	if want.Code == "not_broker" && w.body["code"] == "grace_lapsed" && w.graceMayHaveLapsed() {
		return nil // the broker's grace may have run out on a slow run
	}
	got, _ := w.body["code"].(string)
	if w.Last.Status/100 == 4 && want.Status/100 == 4 && w.Last.Status == failing[got] {
		return verdict.Failf("SX-CODE-ORDER", fmt.Sprintf("%d %s", want.Status, want.Code), fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "several conditions fail; the kit's order picks %s", want.Code)
	}
	rule := ruleOf(want.Code)
	return verdict.Failf(rule, fmt.Sprintf("%d %s", want.Status, want.Code), fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
}

// snapshot is the board as set up: the holder on 2, the broker on 3, the
// other on 5, all listed, combinable within the broker's grace.
func (w *world) snapshot() bounty.Snapshot {
	b := bounty.Board{Round: 1, K: bounty.K, N: bounty.N, Entries: []bounty.Entry{
		{AgentID: w.mine, SharesHeld: []int{2}, ExpiresInS: bounty.TTLSeconds},
		{AgentID: w.broker, SharesHeld: []int{3}, ExpiresInS: bounty.TTLSeconds},
		{AgentID: w.other, SharesHeld: []int{5}, ExpiresInS: bounty.TTLSeconds}}}
	return bounty.Snapshot{ChallengeID: w.p.cid, Board: b, Proximity: bounty.ComputeProximity(b)}
}

func orLive(cid, live string) string {
	if cid == "" {
		return live
	}
	return cid
}

// ruleOf names the rule whose code the release rule answered.
// failingConditions are every refusal of the release rule that holds for
// pull, code -> status, found by skipping each refusal in turn: the
// contract lists the conditions but not their order, so any of these codes
// is a MUST-correct answer and only the kit's pick among them is
// SX-CODE-ORDER. A code outside the set refuses for a condition that does
// not hold, which is the MUST rule's failure, never a warning.
func failingConditions(s bounty.Snapshot, pull rsx.Pull) map[string]int {
	out := map[string]int{}
	skip := map[string]bool{}
	for {
		a := rsx.ReleaseSkipping(s, []int{2}, pull, skip)
		rule := ruleOf(a.Code)
		if a.Status/100 != 4 || out[a.Code] != 0 || skip[rule] {
			return out
		}
		out[a.Code] = a.Status
		skip[rule] = true
	}
}

func ruleOf(code string) string {
	return map[string]string{"elected_broker": "SX-RELEASE", "grace_lapsed": "SX-RELEASE", "stale_round": "SX-STALE",
		"not_held": "SX-NOT-HELD", "requester_is_holder": "SX-SELF", "requester_unlisted": "SX-UNLISTED",
		"board_not_combinable": "SX-NOT-COMBINABLE", "not_broker": "SX-NOT-BROKER", "bad_request": "SX-BAD-REQUEST"}[code]
}
