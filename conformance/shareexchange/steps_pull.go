package shareexchange

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// pullSteps registers the steps of features/share-exchange/pull.feature.
func (w *world) pullSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a combinable board whose holder the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, true, combinable) })
	sc.Step(pattern(`^a board that is not combinable, whose holder the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, true, short) })
	sc.Step(pattern(`^a board of (three shares on two members|three holders of two shares|one holder to spare), whose holder the responder plays$`), func(ctx context.Context, shape string) error {
		return w.setup(ctx, true, boardShapes[shape])
	})
	sc.Step(pattern(`^the holder is handed share (\d+) off the board$`), w.handedOffBoard)
	sc.Step(pattern(`^the bystander leaves the board$`), w.bystanderLeaves)
	sc.Step(pattern(`^the (broker|non-broker|unlisted agent|holder|bystander) pulls share (\d+)$`), func(ctx context.Context, who string, s int) error {
		return w.pull(ctx, w.role(who), s, "", rsx.Protocol)
	})
	sc.Step(pattern(`^the broker pulls share (\d+) with share_index as a string$`), w.pullIndexAsString)
	sc.Step(pattern(`^the broker pulls share (\d+) of another challenge$`), func(ctx context.Context, s int) error {
		return w.pull(ctx, w.broker, s, "chal-not-the-live-round", rsx.Protocol)
	})
	sc.Step(pattern(`^the broker pulls share (\d+) of the round that just closed$`), func(ctx context.Context, s int) error {
		cid, err := w.closedRound()
		if err != nil {
			return err
		}
		return w.pull(ctx, w.broker, s, cid, rsx.Protocol)
	})
	sc.Step(pattern(`^the broker pulls share (\d+) speaking "([^"]*)"$`), func(ctx context.Context, s int, proto string) error {
		return w.pull(ctx, w.broker, s, "", proto)
	})
	sc.Step(pattern(`^the broker pulls share (\d+) without a protocol$`), func(ctx context.Context, s int) error {
		return w.pull(ctx, w.broker, s, "", "")
	})
	sc.Step(pattern(`^the broker pulls share (\d+) without its (challenge_id|requester|agent_id|share_index)$`), func(ctx context.Context, s int, field string) error {
		return w.sendWithout(ctx, w.pullBody(w.broker, s, "", rsx.Protocol), field)
	})
	sc.Step(pattern(`^the answer releases the share with code "([^"]*)"$`), w.released)
	sc.Step(pattern(`^the refusal names the broker and the grace remaining$`), w.namesBroker)
	sc.Step(pattern(`^the refusal body carries ok false, the protocol, a code and a reason$`), w.refusalBody)
	sc.Step(pattern(`^the runner reads the responder's discovery document$`), w.readDiscovery)
	sc.Step(pattern(`^it names abp-share-exchange/1 and a platform$`), w.discoveryNames)
	sc.Step(pattern(`^(\d+) seconds pass$`), w.secondsPass)
	sc.Step(pattern(`^every response so far matched the OpenAPI document$`), w.openAPIClean)
}

// released checks a release and its code; once the broker's grace may
// have lapsed, the broker's release may say either (the contract's
// release rule holds for it both ways).
func (w *world) released(code string) error {
	if code == "elected_broker" && w.body["code"] == "grace_lapsed" && w.graceMayHaveLapsed() {
		code = "grace_lapsed"
	}
	// The share is compared as hex, whatever its letters' case: the
	// convention names the field, not the hex spelling (the bounty's own
	// solve answers are read the same way).
	want := w.hex[w.mine][2]
	got, _ := w.body["share_hex"].(string)
	if w.Last.Status != http.StatusOK || w.body["ok"] != true || w.body["code"] != code || !strings.EqualFold(got, want) || w.body["protocol"] != rsx.Protocol {
		return verdict.Failf(w.rule, fmt.Sprintf("200 {ok: true, code %s, share_hex}", code), w.Last.Status, "%s", w.Last.Body)
	}
	// The released body names the holder and the share ("agent_id":
	// "holder", "share_index": "int"), so a collector knows whose share it
	// combines (SX-RELEASE).
	if w.body["agent_id"] != w.mine || w.body["share_index"] != float64(2) {
		return verdict.Failf(w.rule, fmt.Sprintf("agent_id %s and share_index 2 in the release", w.mine),
			fmt.Sprintf("%v, %v", w.body["agent_id"], w.body["share_index"]), "%s", w.Last.Body)
	}
	return nil
}

// namesBroker: a not_broker refusal names the roster's broker (the
// lowest agent_id of the roster, not of the board: the bystander is
// lower) and the grace that remains of broker_grace_s = 30 s. The board
// cannot have been combinable before the runner began listing the team,
// so at least 30 s less the time since then remain, less a second for
// rounding; a grace counted up (combinable_for_s) fails (SX-NOT-BROKER).
func (w *world) namesBroker() error {
	g, _ := w.body["grace_remaining_s"].(float64)
	least := bounty.BrokerGraceSeconds - w.now().Sub(w.listedAt).Seconds() - 1
	if w.body["broker"] != w.broker || g <= 0 || g > bounty.BrokerGraceSeconds || g < least {
		return verdict.Failf("SX-NOT-BROKER", fmt.Sprintf("broker %s and %.0f <= grace_remaining_s <= 30", w.broker, max(least, 0)),
			fmt.Sprintf("%v, %v", w.body["broker"], w.body["grace_remaining_s"]), "")
	}
	return nil
}

func (w *world) refusalBody() error {
	reason, _ := w.body["reason"].(string)
	if w.Last.Status/100 != 4 || w.body["ok"] != false || w.body["protocol"] != rsx.Protocol || w.body["code"] == nil || reason == "" {
		return verdict.Failf("SX-REFUSED-BODY", "{ok: false, protocol, code, reason}", string(w.Last.Body), "")
	}
	return w.refusalShaped()
}

func (w *world) readDiscovery(ctx context.Context) error {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodGet, Path: "/"})
	if err != nil {
		return err
	}
	w.Last, w.body = resp, map[string]any{}
	_ = json.Unmarshal(resp.Body, &w.body)
	return nil
}

func (w *world) discoveryNames() error {
	if w.body["protocol"] != rsx.Protocol || w.body["platform"] == nil {
		return verdict.Failf("SX-CONTROL", "{protocol: abp-share-exchange/1, platform}", string(w.Last.Body), "")
	}
	return nil
}

// secondsPass lets n seconds of a documented window pass (suite.Env.WaitOut:
// the embedded clock moves, a live run waits only under --long).
func (w *world) secondsPass(ctx context.Context, n int) error {
	return w.env.WaitOut(ctx, secondsDuration(n))
}

func (w *world) openAPIClean() error {
	rec := w.env.HTTP.Recorder()
	if rec == nil || len(rec.Exchanges()) == 0 {
		return verdict.Errorf("no response to validate")
	}
	if f := rec.Findings(); len(f) > 0 {
		return f[0]
	}
	return nil
}

// boardShapes names the boards a step sets up by their shape (board).
var boardShapes = map[string]board{
	"three shares on two members": twoMembers,
	"three holders of two shares": twoShares,
	"one holder to spare":         spare,
}

// handedOffBoard hands the responder's agent the broker's share s through
// the control surface, though the board does not show the agent holding
// it: "the holder does not hold share_index (engine-verified)", so a pull
// of it must be refused not_held, whatever the holder's own store has
// (SX-NOT-HELD).
func (w *world) handedOffBoard(ctx context.Context, s int) error {
	h := w.hex[w.broker][s]
	if h == "" {
		return verdict.Errorf("the runner holds no share_hex for share %d", s)
	}
	return w.adopt(ctx, map[int]string{s: h})
}

// bystanderLeaves delists the bystander: a requester without a LIVE
// listing is unlisted, whatever it was before (SX-UNLISTED).
func (w *world) bystanderLeaves(ctx context.Context) error {
	return w.p.delist(ctx, w.st, w.bystander)
}

// pullIndexAsString is the broker's pull of share s with share_index the
// string "s": the convention names an int (1..n), so the body is
// malformed (SX-BAD-REQUEST).
func (w *world) pullIndexAsString(ctx context.Context, s int) error {
	return w.send(ctx, map[string]any{"protocol": rsx.Protocol, "challenge_id": w.p.cid, "round": w.p.round,
		"requester": w.broker, "agent_id": w.mine, "share_index": strconv.Itoa(s)})
}
