package shareexchange

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// offerSteps registers the steps of features/share-exchange/offer.feature.
func (w *world) offerSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a combinable board whose collector the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, false, combinable) })
	sc.Step(pattern(`^a board that is not combinable, whose collector the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, false, short) })
	sc.Step(pattern(`^a board of (three shares on two members|three holders of two shares|one holder to spare), whose collector the responder plays$`), func(ctx context.Context, shape string) error {
		return w.setup(ctx, false, boardShapes[shape])
	})
	sc.Step(pattern(`^a board of two holders of share 3, the offerer on share 1 too, whose collector the responder plays$`), func(ctx context.Context) error {
		return w.setup(ctx, false, doubled)
	})
	sc.Step(pattern(`^the (offerer|unlisted agent|collector|broker|second holder) offers share (\d+) to the collector$`), func(ctx context.Context, who string, s int) error {
		return w.offer(ctx, w.role(who), s, "", w.mine, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to the collector without its (challenge_id|to|agent_id|share_index)$`), func(ctx context.Context, s int, field string) error {
		return w.sendWithout(ctx, w.offerBody(w.other, s, "", w.mine, true), field)
	})
	sc.Step(pattern(`^the round closes and the team solves its shares again$`), w.nextRound)
	sc.Step(pattern(`^the offerer offers share (\d+) of another challenge to the collector$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "chal-not-the-live-round", w.mine, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) of the round that just closed to the collector$`), func(ctx context.Context, s int) error {
		cid, err := w.closedRound()
		if err != nil {
			return err
		}
		return w.offer(ctx, w.other, s, cid, w.mine, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to another agent$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "", w.broker, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) without share_hex to the collector$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "", w.mine, false)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to the collector speaking "([^"]*)"$`), w.offerSpeaking)
	sc.Step(pattern(`^the offerer offers share (\d+) to the collector without a protocol$`), func(ctx context.Context, s int) error {
		return w.offerSpeaking(ctx, s, "")
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to the collector again, with another share_hex$`), w.reofferOtherHex)
	sc.Step(pattern(`^the answer accepts the offer with code "([^"]*)"$`), w.accepted)
	sc.Step(pattern(`^the answer does not accept the offer again$`), w.notAcceptedAgain)
}

// reofferOtherHex offers the offerer's share s again under the same
// (round, holder, share), its share_hex with the first digit changed: a
// forged or corrupted copy of an offer the collector already has.
func (w *world) reofferOtherHex(ctx context.Context, s int) error {
	body := w.offerBody(w.other, s, "", w.mine, true)
	h, _ := body["share_hex"].(string)
	if h == "" {
		return verdict.Errorf("the runner holds no share_hex for share %d", s)
	}
	flip := byte('0')
	if h[0] == '0' {
		flip = '1'
	}
	body["share_hex"] = string(flip) + h[1:]
	return w.send(ctx, body)
}

// notAcceptedAgain: "The collector keeps the first offer per (round,
// holder, share)", so a second offer of it, whatever its share_hex, is
// not accepted as new: duplicate, or a refusal (the convention names no
// code for a conflicting copy), never accepted (SX-OFFER-ACCEPT).
func (w *world) notAcceptedAgain() error {
	if w.Last.Status/100 == 2 && w.body["code"] == "accepted" {
		return verdict.Failf(w.rule, "duplicate, or a refusal: the collector keeps the first offer per (round, holder, share)", "accepted", "%s", w.Last.Body)
	}
	return nil
}

func (w *world) accepted(code string) error {
	// The accepted body carries the protocol like every other (SX-OFFER-ACCEPT).
	if w.Last.Status != http.StatusOK || w.body["ok"] != true || w.body["code"] != code || w.body["kind"] != "offer" || w.body["protocol"] != rsx.Protocol {
		return verdict.Failf(w.rule, fmt.Sprintf("200 {ok: true, protocol, kind: offer, code %s}", code), w.Last.Status, "%s", w.Last.Body)
	}
	return nil
}
