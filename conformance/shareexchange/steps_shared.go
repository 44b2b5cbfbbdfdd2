package shareexchange

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// sharedSteps registers the steps several feature files use.
func (w *world) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the answer refuses with (\d+) "([^"]*)"$`), w.refused)
	sc.Step(pattern(`^the answer refuses the request without its field$`), w.refusedIncomplete)
	w.exactSteps(sc)
	w.paddedSteps(sc)
}

// refused checks a refusal's status and code. A non-broker's pull
// answered by a grace_lapsed release once the grace may have run out
// (graceMayHaveLapsed) checks nothing: the runner was too slow to see the
// grace running.
func (w *world) refused(status int, code string) error {
	if code == "not_broker" && w.Last.Status == http.StatusOK && w.body["code"] == "grace_lapsed" && w.graceMayHaveLapsed() {
		return verdict.Skipf("the board was listed %v ago, so the broker's 30 s grace may have lapsed before the pull: a grace_lapsed release is right then, and nothing is checked",
			w.now().Sub(w.listedAt).Round(time.Second))
	}
	if w.Last.Status != status || w.body["code"] != code || w.body["ok"] != false {
		return verdict.Failf(w.rule, fmt.Sprintf("%d %s", status, code), fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
	}
	return w.refusalClean()
}

// refusal is a status and a code a refusal may answer with.
type refusal struct {
	status int
	code   string
}

// gapCodes are, per field a pull or an offer may leave out, the refusals
// that condition a body without it fails, besides 400 bad_request (the
// body is malformed: SX-BAD-REQUEST, SX-OFFER-BAD-REQUEST). The convention
// orders no codes (SX-CODE-ORDER is the kit's choice), so each is a
// MUST-correct answer: no challenge_id is not the live round, no
// requester has no live listing, no agent_id or share_index names no
// share the holder holds (the offerer: that the board shows it holding),
// no `to` is not this endpoint's agent.
var gapCodes = map[bool]map[string][]refusal{
	false: { // a pull
		"challenge_id": {{409, "stale_round"}},
		"requester":    {{403, "requester_unlisted"}},
		"agent_id":     {{404, "not_held"}},
		"share_index":  {{404, "not_held"}},
	},
	true: { // an offer
		"challenge_id": {{409, "stale_round"}},
		"to":           {{400, "not_recipient"}},
		"agent_id":     {{403, "offerer_unlisted"}, {404, "offerer_not_holder"}},
		"share_index":  {{404, "offerer_not_holder"}},
	},
}

// refusedIncomplete: a body without one of its fields (w.gap) is
// refused, 400 bad_request or the refusal of a condition the gap fails
// (gapCodes); a release, an accepted offer or a refusal for a condition
// that holds fails the scenario's rule (SX-BAD-REQUEST,
// SX-OFFER-BAD-REQUEST). A field taken as defaulted (the live round, this
// endpoint's agent) is a gap filled from what the request did not say.
func (w *world) refusedIncomplete() error {
	allowed := append([]refusal{{400, "bad_request"}}, gapCodes[w.offered][w.gap]...)
	for _, a := range allowed {
		if w.Last.Status == a.status && w.body["code"] == a.code && w.body["ok"] == false {
			return w.refusalClean()
		}
	}
	return verdict.Failf(w.rule, fmt.Sprintf("a refusal of the body without %s: one of %v", w.gap, allowed),
		fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
}

// refusalClean: a refusal releases nothing, neither as share_hex nor
// under another key (a pull's; an offer's refusal may echo what it was
// sent), and is shaped as every refusal is (refusalShaped).
func (w *world) refusalClean() error {
	if _, leaked := w.body["share_hex"]; leaked && !w.offered {
		return verdict.Failf(w.rule, "no share_hex in a refusal", "share_hex", "")
	}
	if h := w.shareIn(w.Last.Body); h != "" && !w.offered {
		return verdict.Failf(w.rule, "no share in a refusal", "a share_hex the runner holds, under another key", "%s", w.Last.Body)
	}
	return w.refusalShaped()
}

// shareIn is the first share_hex the runner knows (any agent's, any
// share) that body carries, searched by value in either hex case: a
// refusal releases nothing, under whatever key or nesting.
func (w *world) shareIn(body []byte) string {
	text := strings.ToLower(string(body))
	for _, shares := range w.hex {
		for _, h := range shares {
			if h != "" && strings.Contains(text, strings.ToLower(h)) {
				return h
			}
		}
	}
	return ""
}

// refusalShaped: every refusal, whatever its code, is {ok: false,
// protocol, code, reason}, and an offer's refusal carries kind: offer
// beside them, as the convention's refused offer body names it
// (SX-REFUSED-BODY), judged after the code the scenario's rule fixes.
func (w *world) refusalShaped() error {
	reason, _ := w.body["reason"].(string)
	if w.body["protocol"] != rsx.Protocol || reason == "" {
		return verdict.Failf("SX-REFUSED-BODY", "{ok: false, protocol, code, reason}", string(w.Last.Body), "a %v refusal", w.body["code"])
	}
	if w.offered && w.body["kind"] != "offer" {
		return verdict.Failf("SX-REFUSED-BODY", "{ok: false, protocol, kind: offer, code, reason}", string(w.Last.Body), "an offer's %v refusal", w.body["code"])
	}
	return nil
}

// exactSteps registers the steps of the probes that name an identifier in
// another case or a share_index that is no index of 1..n: the convention
// fixes the identifiers as the strings the platform issued and share_index
// as an int, so a near miss is another value, never the one it resembles.
func (w *world) exactSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the answer refuses with (\d+) "([^"]*)" or 400 "bad_request"$`), w.refusedOrMalformed)
	sc.Step(pattern(`^the broker pulls share (\d+) naming itself in upper case$`), func(ctx context.Context, s int) error {
		return w.send(ctx, w.pullBody(strings.ToUpper(w.broker), s, "", rsx.Protocol))
	})
	sc.Step(pattern(`^the broker pulls share (\d+) of the live challenge in upper case$`), func(ctx context.Context, s int) error {
		return w.send(ctx, w.pullBody(w.broker, s, strings.ToUpper(w.p.cid), rsx.Protocol))
	})
	sc.Step(pattern(`^the broker pulls share_index ([0-9.]+)$`), func(ctx context.Context, lit string) error {
		body := w.pullBody(w.broker, 0, "", rsx.Protocol)
		return w.sendIndex(ctx, body, lit)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) of the live challenge in upper case to the collector$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, strings.ToUpper(w.p.cid), w.mine, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to the collector named in upper case$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "", strings.ToUpper(w.mine), true)
	})
	sc.Step(pattern(`^the offerer offers share_index ([0-9.]+) to the collector$`), func(ctx context.Context, lit string) error {
		// The offer carries the offerer's share 3 (the one it holds), so
		// only its index is off.
		return w.sendIndex(ctx, w.offerBody(w.other, 3, "", w.mine, true), lit)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) with share_index true to the collector$`), func(ctx context.Context, s int) error {
		// The offer carries the offerer's share s, so only its index,
		// a JSON boolean, is off (SX-OFFER-BAD-REQUEST: an int).
		body := w.offerBody(w.other, s, "", w.mine, true)
		body["share_index"] = true
		return w.send(ctx, body)
	})
}

// sendIndex sends body with share_index the JSON number lit (0, or a
// fraction such as 2.5 that an int parse would truncate to a held share).
func (w *world) sendIndex(ctx context.Context, body map[string]any, lit string) error {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return verdict.Errorf("share_index %q is no number", lit)
	}
	body["share_index"] = f
	return w.send(ctx, body)
}

// refusedOrMalformed: the answer is the refusal of the condition the
// probe fails (status, code) or 400 bad_request, the body naming no
// identifier or index the convention can mean being a malformed one: the
// convention leaves open which of the two a responder answers, and fixes
// that it releases or accepts nothing. An identifier in another case is
// not the one the platform issued (SX-UNLISTED, SX-STALE,
// SX-OFFER-STALE, SX-OFFER-NOT-RECIPIENT: each compares the string as
// issued; so is one padded with spaces, and SX-OFFER-UNLISTED compares
// the offerer's agent_id so too); a share_index of 0, 2.5, 7 or 8 is no
// share of 1..n the holder holds (SX-NOT-HELD, SX-BAD-REQUEST,
// SX-OFFER-BAD-REQUEST, SX-OFFER-NOT-HOLDER: "the share requested (int,
// 1..n)"), and neither is true, a JSON boolean an int-like reader
// (Python's bool) takes for 1.
func (w *world) refusedOrMalformed(status int, code string) error {
	for _, a := range []refusal{{status, code}, {400, "bad_request"}} {
		if w.Last.Status == a.status && w.body["code"] == a.code && w.body["ok"] == false {
			return w.refusalClean()
		}
	}
	return verdict.Failf(w.rule, fmt.Sprintf("%d %s or 400 bad_request", status, code),
		fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
}

// padded is id with a space on either side: a string no platform issues
// (its agent_ids and challenge_ids carry no whitespace), so a responder
// that trims it before comparing takes it for the id it surrounds.
func padded(id string) string { return " " + id + " " }

// paddedSteps registers the probes that name an issued identifier with
// whitespace around it. The convention compares the identifiers as the
// platform issued them (SX-UNLISTED "requester has no live listing",
// SX-STALE and SX-OFFER-STALE "challenge_id is not the live round",
// SX-OFFER-NOT-RECIPIENT "`to` is not the agent this endpoint answers
// for", SX-OFFER-UNLISTED "the offering agent has no live listing"), so
// a padded one is another value; the answer is judged by
// refusedOrMalformed, which also takes 400 bad_request.
func (w *world) paddedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the broker pulls share (\d+) naming itself padded with spaces$`), func(ctx context.Context, s int) error {
		return w.send(ctx, w.pullBody(padded(w.broker), s, "", rsx.Protocol))
	})
	sc.Step(pattern(`^the broker pulls share (\d+) of the live challenge padded with spaces$`), func(ctx context.Context, s int) error {
		return w.send(ctx, w.pullBody(w.broker, s, padded(w.p.cid), rsx.Protocol))
	})
	sc.Step(pattern(`^the offerer offers share (\d+) of the live challenge padded with spaces to the collector$`), func(ctx context.Context, s int) error {
		body := w.offerBody(w.other, s, "", w.mine, true)
		body["challenge_id"] = padded(w.p.cid)
		return w.send(ctx, body)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to the collector named padded with spaces$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "", padded(w.mine), true)
	})
	sc.Step(pattern(`^the offerer, naming itself padded with spaces, offers share (\d+) to the collector$`), func(ctx context.Context, s int) error {
		// The offer carries the offerer's own share_hex, so only its
		// agent_id is off.
		body := w.offerBody(w.other, s, "", w.mine, true)
		body["agent_id"] = padded(w.other)
		return w.send(ctx, body)
	})
}
