// Package shareexchange is the reference end of abp-share-exchange/1, the
// agent-to-agent convention by which a coalition's broker collects shares
// (the platform never carries them): the release rule a holder applies to
// a PULL, the offer rule by which a holder that cannot be called OFFERS
// its share, and the checks a collector applies to an offer. Every
// decision reads the live board only, never the request's claims.
package shareexchange

import (
	"math"
	"net/url"
	"slices"
	"sort"

	"github.com/agentgames/conformance/reference/bounty"
)

// Protocol is the convention's name, carried in every body.
const Protocol = "abp-share-exchange/1"

// Pull is a collector's request to a holder.
type Pull struct {
	Protocol    string `json:"protocol"`
	ChallengeID string `json:"challenge_id"`
	Round       int    `json:"round"`
	Requester   string `json:"requester"`
	AgentID     string `json:"agent_id"`
	ShareIndex  int    `json:"share_index"`
}

// Offer is a holder's unsolicited share for a collector.
type Offer struct {
	Protocol    string `json:"protocol"`
	Kind        string `json:"kind"`
	ChallengeID string `json:"challenge_id"`
	Round       int    `json:"round"`
	AgentID     string `json:"agent_id"`
	To          string `json:"to"`
	ShareIndex  int    `json:"share_index"`
	ShareHex    string `json:"share_hex"`
}

// Answer is a decision: the status and the code, plus what a refusal by
// not_broker carries.
type Answer struct {
	Status         int
	Code           string
	Reason         string
	Broker         string
	GraceRemaining float64
}

func refuse(status int, code, reason string) Answer {
	return Answer{Status: status, Code: code, Reason: reason}
}

// Listed returns id's live listing on the board, if it has one.
func Listed(s bounty.Snapshot, id string) (bounty.Entry, bool) {
	for _, e := range s.Board.Entries {
		if e.AgentID == id {
			return e, true
		}
	}
	return bounty.Entry{}, false
}

// holds reports whether the board shows id holding share (engine-verified
// shares_held of a live listing).
func holds(s bounty.Snapshot, id string, share int) bool {
	e, ok := Listed(s, id)
	return ok && slices.Contains(e.SharesHeld, share)
}

// Release applies the release rule to a PULL for a holder whose verified
// holdings are held (SX-RELEASE): it releases iff the request names
// the live challenge, the holder holds the share, the requester is listed,
// the board is combinable, and the requester is the broker or the broker's
// grace has lapsed; otherwise it answers the code of the first condition
// that fails (SX-STALE, SX-SELF, SX-NOT-HELD, SX-UNLISTED,
// SX-NOT-COMBINABLE, SX-NOT-BROKER, SX-BAD-REQUEST; SX-CODE-ORDER).
func Release(s bounty.Snapshot, held []int, p Pull) Answer { return ReleaseBroken(s, held, p, nil) }

// ReleaseBroken is Release with some conditions skipped: the tamper tests'
// broken responders (skip names the rules they break; nil skips none).
func ReleaseBroken(s bounty.Snapshot, held []int, p Pull, skip map[string]bool) Answer {
	switch {
	case (p.Protocol != Protocol && !skip["SX-BAD-REQUEST"]) || p.Requester == "" || p.AgentID == "" || p.ShareIndex < 1:
		return refuse(400, "bad_request", "malformed body or wrong protocol")
	case p.ChallengeID != s.ChallengeID && !skip["SX-STALE"]:
		return refuse(409, "stale_round", "challenge_id is not the live round")
	case p.Requester == p.AgentID && !skip["SX-SELF"]:
		return refuse(400, "requester_is_holder", "requester == agent_id")
	case !slices.Contains(held, p.ShareIndex) && !skip["SX-NOT-HELD"]:
		return refuse(404, "not_held", "the holder does not hold share_index")
	}
	if _, ok := Listed(s, p.Requester); !ok && !skip["SX-UNLISTED"] {
		return refuse(403, "requester_unlisted", "requester has no live listing on the board")
	}
	prox := s.Proximity
	if !prox.CombinableNow && !skip["SX-NOT-COMBINABLE"] {
		return refuse(409, "board_not_combinable", "combinable_now is false: nobody needs your share yet")
	}
	if p.Requester == prox.Broker || skip["SX-NOT-BROKER"] {
		return Answer{Status: 200, Code: "elected_broker"}
	}
	if prox.CombinableForS >= prox.BrokerGraceS {
		return Answer{Status: 200, Code: "grace_lapsed"}
	}
	a := refuse(403, "not_broker", "requester is not the elected broker and the grace has not lapsed")
	a.Broker, a.GraceRemaining = prox.Broker, math.Max(0, prox.BrokerGraceS-prox.CombinableForS)
	return a
}

// AcceptOffer applies the collector's checks to an OFFER addressed to me
// (SX-OFFER-ACCEPT); seen reports whether this
// (round, holder, share) was offered before, which answers duplicate.
func AcceptOffer(s bounty.Snapshot, me string, o Offer, seen bool) Answer {
	return AcceptOfferBroken(s, me, o, seen, nil)
}

// AcceptOfferBroken is AcceptOffer with some checks skipped (tamper tests;
// skip names the rules broken, nil skips none).
func AcceptOfferBroken(s bounty.Snapshot, me string, o Offer, seen bool, skip map[string]bool) Answer {
	switch {
	case (o.Protocol != Protocol || o.Kind != "offer" || o.AgentID == "" || o.To == "" || o.ShareIndex < 1 || o.ShareHex == "") && !skip["SX-OFFER-BAD-REQUEST"]:
		return refuse(400, "bad_request", "malformed body or wrong protocol") // SX-OFFER-BAD-REQUEST
	case o.ChallengeID != s.ChallengeID && !skip["SX-OFFER-STALE"]:
		return refuse(409, "stale_round", "challenge_id is not the live round") // SX-OFFER-STALE
	case o.To != me && !skip["SX-OFFER-NOT-RECIPIENT"]:
		return refuse(400, "not_recipient", "`to` is not the agent this endpoint answers for") // SX-OFFER-NOT-RECIPIENT
	case o.AgentID == o.To && !skip["SX-OFFER-SELF"]:
		return refuse(400, "offerer_is_recipient", "agent_id == to") // SX-OFFER-SELF
	}
	if _, ok := Listed(s, o.AgentID); !ok && !skip["SX-OFFER-UNLISTED"] {
		return refuse(403, "offerer_unlisted", "the offering agent has no live listing") // SX-OFFER-UNLISTED
	}
	if !holds(s, o.AgentID, o.ShareIndex) && !skip["SX-OFFER-NOT-HOLDER"] {
		return refuse(404, "offerer_not_holder", "the board does not show the offerer holding share_index") // SX-OFFER-NOT-HOLDER
	}
	if !s.Proximity.CombinableNow && !skip["SX-OFFER-NOT-COMBINABLE"] {
		return refuse(409, "board_not_combinable", "combinable_now is false: nobody needs the share yet") // SX-OFFER-NOT-COMBINABLE
	}
	if seen {
		return Answer{Status: 200, Code: "duplicate"}
	}
	if skip["SX-OFFER-ACCEPT"] {
		return Answer{Status: 200, Code: "ok"}
	}
	return Answer{Status: 200, Code: "accepted"}
}

// HTTPContact reports whether a contact can be pulled from: an http(s) URL.
func HTTPContact(contact string) bool {
	u, err := url.Parse(contact)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// OfferTarget is the one agent a holder that cannot be called offers to
// (offer_rule; pinned by vectors/share-exchange): the broker while its grace runs, if its contact
// is http(s); once the grace has lapsed, the lowest agent_id among the
// roster's holders whose contact is http(s). ok is false when the holder
// can be called (it is collected from), is not in the roster, or no such
// member exists.
func OfferTarget(s bounty.Snapshot, holder string) (string, bool) {
	prox := s.Proximity
	if !prox.CombinableNow || HTTPContact(s.Contacts[holder]) {
		return "", false
	}
	inRoster := false
	var callable []string
	for _, m := range prox.Roster {
		inRoster = inRoster || m.AgentID == holder
		if m.AgentID != holder && HTTPContact(s.Contacts[m.AgentID]) {
			callable = append(callable, m.AgentID)
		}
	}
	if !inRoster {
		return "", false
	}
	if prox.CombinableForS < prox.BrokerGraceS {
		if prox.Broker != holder && HTTPContact(s.Contacts[prox.Broker]) {
			return prox.Broker, true
		}
		return "", false
	}
	if len(callable) == 0 {
		return "", false
	}
	sort.Strings(callable)
	return callable[0], true
}
