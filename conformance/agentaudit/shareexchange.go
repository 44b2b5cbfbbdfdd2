package agentaudit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
)

// SXTeam is three agents on the share-exchange reference's platform, each
// holding one share of a combinable board; the responder answers for the
// holder, the highest agent_id, and the broker is the lowest.
type SXTeam struct {
	Base           string // the responder's origin and /share-exchange
	CID            string
	Broker, Holder string
	Middle         string // the third agent, neither broker nor holder
	Share          int    // the holder's share
	Shares         map[string]int
}

// NewSXTeam registers, solves and lists three agents on the platform and
// hands the holder to the responder; every agent but the holder lists an
// https contact (a collector), the holder the responder itself.
func NewSXTeam(ctx context.Context, base string) (*SXTeam, error) {
	p := &BountyAgent{Base: base + "/platform"}
	p.Live(ctx, true)
	var ids []string
	hexes := map[string]string{}
	shares := map[string]int{}
	for _, share := range []int{2, 3, 5} {
		p.Register(ctx)
		hexes[p.ID], shares[p.ID] = p.SolveHex(ctx, share), share
		ids = append(ids, p.ID)
	}
	if p.Err() != nil {
		return nil, p.Err()
	}
	sort.Strings(ids)
	team := &SXTeam{Base: base, CID: p.CID, Broker: ids[0], Middle: ids[1], Holder: ids[2], Share: shares[ids[2]], Shares: shares}
	for _, id := range ids {
		contact := "https://collector.example/" + id
		if id == team.Holder {
			contact = base
		}
		p.Do(ctx, http.MethodPost, "/challenge/"+p.CID+"/peers", map[string]any{"agent_id": id, "contact": contact}, nil)
	}
	ans, err := Do(ctx, Call{Method: http.MethodPost, URL: base + "/control/adopt",
		Body: `{"agent_id":"` + team.Holder + `","shares":{"` + strconv.Itoa(team.Share) + `":"` + hexes[team.Holder] + `"}}`})
	if err != nil || ans.Status/100 != 2 {
		return nil, fmt.Errorf("the responder did not adopt the holder: %v %d %s", err, ans.Status, ans.Body)
	}
	return team, p.Err()
}

// Exchange posts one pull or offer, filling protocol and challenge_id when
// body lacks them, and returns the answer's code.
func (s *SXTeam) Exchange(ctx context.Context, body map[string]any) (string, error) {
	if _, ok := body["protocol"]; !ok {
		body["protocol"] = "abp-share-exchange/1"
	}
	if _, ok := body["challenge_id"]; !ok {
		body["challenge_id"] = s.CID
	}
	ans, err := Do(ctx, Call{Method: http.MethodPost, URL: s.Base + "/", Body: JSON(body)})
	if err != nil {
		return "", err
	}
	var a struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(ans.Body, &a)
	return a.Code, nil
}

// Pull is the requester's pull of the holder's share, with extra fields
// set or replaced.
func (s *SXTeam) Pull(ctx context.Context, requester string, extra map[string]any) (string, error) {
	body := map[string]any{"round": 1, "requester": requester, "agent_id": s.Holder, "share_index": s.Share}
	for k, v := range extra {
		body[k] = v
	}
	return s.Exchange(ctx, body)
}

// Offer is from's offer of share to to (the responder answers for the
// holder, so an offer it accepts is to the holder).
func (s *SXTeam) Offer(ctx context.Context, from, to string, share int) (string, error) {
	return s.Exchange(ctx, map[string]any{"kind": "offer", "round": 1, "agent_id": from, "to": to, "share_index": share, "share_hex": "00"})
}

// sxScript wraps a play of a fresh team.
func sxScript(play func(ctx context.Context, s *SXTeam) error, faults ...string) Script {
	return Script{Faults: faults, Play: func(ctx context.Context, base string) error {
		s, err := NewSXTeam(ctx, base)
		if err != nil {
			return err
		}
		return play(ctx, s)
	}}
}

// wantCode fails unless an exchange answered want.
func wantCode(want string) func(string, error) error {
	return func(got string, err error) error {
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("the exchange answered %q, not %q", got, want)
		}
		return nil
	}
}

func init() {
	register("share-exchange", "is the elected broker and pulls from the holder", sxScript(func(ctx context.Context, s *SXTeam) error {
		return wantCode("elected_broker")(s.Pull(ctx, s.Broker, nil))
	}))
	register("share-exchange", "pulls without a listing", sxScript(func(ctx context.Context, s *SXTeam) error {
		return wantCode("requester_unlisted")(s.Pull(ctx, "agent-nobody", nil))
	}))
	register("share-exchange", "offers a share without a listing", sxScript(func(ctx context.Context, s *SXTeam) error {
		return wantCode("offerer_unlisted")(s.Offer(ctx, "agent-nobody", s.Holder, 2))
	}))
	register("share-exchange", "names the stale round again after stale_round", sxScript(func(ctx context.Context, s *SXTeam) error {
		for range 2 {
			if err := wantCode("stale_round")(s.Pull(ctx, s.Broker, map[string]any{"challenge_id": "chal-000000000000"})); err != nil {
				return err
			}
		}
		return nil
	}))
	register("share-exchange", "offers the same share to the same agent twice", sxScript(func(ctx context.Context, s *SXTeam) error {
		if err := wantCode("accepted")(s.Offer(ctx, s.Broker, s.Holder, s.Shares[s.Broker])); err != nil {
			return err
		}
		return wantCode("duplicate")(s.Offer(ctx, s.Broker, s.Holder, s.Shares[s.Broker]))
	}))
	register("share-exchange", "offers its share to an agent the policy does not let combine", sxScript(func(ctx context.Context, s *SXTeam) error {
		return wantCode("not_recipient")(s.Offer(ctx, s.Holder, s.Middle, s.Share))
	}))
	register("share-exchange", "offers a share while listed with an https contact", sxScript(func(ctx context.Context, s *SXTeam) error {
		_, err := s.Offer(ctx, s.Middle, s.Broker, s.Shares[s.Middle])
		return err
	}))
	register("share-exchange", "pulls although it is not the elected broker", sxScript(func(ctx context.Context, s *SXTeam) error {
		return wantCode("not_broker")(s.Pull(ctx, s.Middle, nil))
	}))
	register("share-exchange", "sends an exchange of another protocol version", sxScript(func(ctx context.Context, s *SXTeam) error {
		return wantCode("bad_request")(s.Pull(ctx, s.Broker, map[string]any{"protocol": "abp-share-exchange/0"}))
	}))
	register("share-exchange", "is the broker and takes an offered share it could have pulled", sxScript(func(ctx context.Context, s *SXTeam) error {
		return nil // the offer reaches the broker's own contact, never the responder: nothing to send here
	}))
}
