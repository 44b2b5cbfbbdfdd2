package cli_test

import (
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/reference/bounty"
)

// sxTeam is three agents on the share-exchange reference's platform, each
// holding one share of a combinable board; the responder answers for the
// holder, the highest agent_id, and the broker is the lowest.
type sxTeam struct {
	base           string
	cid            string
	broker, holder string
	share          int
}

// newSXTeam registers, solves and lists three agents and hands the holder
// to the responder.
func newSXTeam(t *testing.T, base string) *sxTeam {
	p := &bountyAgent{t: t, base: base + "/platform"}
	p.live(true)
	var ids []string
	hexes := map[string]string{}
	shares := map[string]int{}
	for _, share := range []int{2, 3, 5} {
		p.register()
		var out struct {
			ShareHex string `json:"share_hex"`
		}
		for _, pz := range p.man {
			if pz.ShareIndex == share {
				p.do("POST", "/challenge/"+p.cid+"/solve", map[string]any{"agent_id": p.id, "share_index": share, "solution": bounty.Solve(pz)}, &out)
			}
		}
		require.NotEmpty(t, out.ShareHex)
		ids = append(ids, p.id)
		hexes[p.id], shares[p.id] = out.ShareHex, share
	}
	sort.Strings(ids)
	team := &sxTeam{base: base, cid: p.cid, broker: ids[0], holder: ids[2], share: shares[ids[2]]}
	for _, id := range ids {
		contact := "https://collector.example/" + id
		if id == team.holder {
			contact = base
		}
		p.do("POST", "/challenge/"+p.cid+"/peers", map[string]any{"agent_id": id, "contact": contact}, nil)
	}
	post(t, base+"/control/adopt", "", "", `{"agent_id":"`+team.holder+`","shares":{"`+strconv.Itoa(team.share)+`":"`+hexes[team.holder]+`"}}`)
	return team
}

// exchange posts one pull or offer and returns the answer's code.
func (s *sxTeam) exchange(t *testing.T, body map[string]any) string {
	if _, ok := body["protocol"]; !ok {
		body["protocol"] = "abp-share-exchange/1"
	}
	if _, ok := body["challenge_id"]; !ok {
		body["challenge_id"] = s.cid
	}
	raw, _ := json.Marshal(body)
	resp := post(t, s.base+"/", "", "", string(raw))
	out, _ := io.ReadAll(resp.Body)
	var a struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(out, &a)
	return a.Code
}

// TestShareExchangeAuditCleanAndRude: the elected broker pulling from a
// holder on a combinable board gets a clean audit; agents that pull
// unlisted or malformed, keep naming a stale round, and offer from an
// http(s) holder, to the wrong agent or twice are each named.
func TestShareExchangeAuditCleanAndRude(t *testing.T) {
	base, a := serveBountyAudited(t, "share-exchange", 0)
	team := newSXTeam(t, base)
	code := team.exchange(t, map[string]any{"round": 1, "requester": team.broker, "agent_id": team.holder, "share_index": team.share})
	require.Equal(t, "elected_broker", code)
	require.True(t, cli.BuildAuditReport(a).Clean, "the broker broke %v", brokenRules(a))

	base, a = serveBountyAudited(t, "share-exchange", 0)
	team = newSXTeam(t, base)
	pull := func(requester string, extra map[string]any) string {
		body := map[string]any{"round": 1, "requester": requester, "agent_id": team.holder, "share_index": team.share}
		for k, v := range extra {
			body[k] = v
		}
		return team.exchange(t, body)
	}
	assert.Equal(t, "requester_unlisted", pull("agent-nobody", nil))
	assert.Equal(t, "bad_request", pull(team.broker, map[string]any{"protocol": "abp-share-exchange/0"}))
	assert.Equal(t, "stale_round", pull(team.broker, map[string]any{"challenge_id": "chal-000000000000"}))
	pull(team.broker, map[string]any{"challenge_id": "chal-000000000000"})
	offer := func(from, to string) string {
		return team.exchange(t, map[string]any{"kind": "offer", "round": 1, "agent_id": from, "to": to, "share_index": 2, "share_hex": "00"})
	}
	offer(team.broker, "agent-somebody-else")
	rules := brokenRules(a)
	for _, want := range []string{"SX-AGENT-REQUESTER-LISTED", "SX-AGENT-WELL-FORMED", "SX-AGENT-LIVE-ROUND",
		"SX-AGENT-HTTP-NO-OFFER", "SX-AGENT-OFFER-TARGET"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}
}
