package shareexchange

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
	"github.com/agentgames/conformance/spec"
)

// world is one scenario: the platform, the roles, and (in the embedded
// base) the last answer.
type world struct {
	suite.Scenario[suite.NoState]
	env  *suite.Env
	p    *platform
	rule string
	// the responder's agent (holder or collector), the broker (lowest id
	// of the roster), the other member, and an unlisted agent.
	mine, broker, other, unlisted string
	hex                           map[string]map[int]string // agent -> share -> share_hex
	body                          map[string]any            // Last's body, decoded
	setupAt                       time.Time                 // when the board became combinable
}

// Steps registers every share-exchange step on sc for one scenario.
func Steps(sc *godog.ScenarioContext, env *suite.Env) {
	w := &world{env: env, hex: map[string]map[int]string{}}
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
		for _, t := range s.Tags {
			if id := strings.TrimPrefix(t.Name, "@"); spec.IDPattern.MatchString(id) && w.rule == "" {
				w.rule = id
			}
		}
		return ctx, nil
	})
	sc.Step(pattern(`^a combinable board whose holder the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, true, true) })
	sc.Step(pattern(`^a board that is not combinable, whose holder the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, true, false) })
	sc.Step(pattern(`^a combinable board whose collector the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, false, true) })
	sc.Step(pattern(`^a board that is not combinable, whose collector the responder plays$`), func(ctx context.Context) error { return w.setup(ctx, false, false) })
	sc.Step(pattern(`^the (broker|non-broker|unlisted agent|holder) pulls share (\d+)$`), func(ctx context.Context, who string, s int) error {
		return w.pull(ctx, w.role(who), s, "", rsx.Protocol)
	})
	sc.Step(pattern(`^the broker pulls share (\d+) of another challenge$`), func(ctx context.Context, s int) error {
		return w.pull(ctx, w.broker, s, "chal-not-the-live-round", rsx.Protocol)
	})
	sc.Step(pattern(`^the broker pulls share (\d+) speaking "([^"]*)"$`), func(ctx context.Context, s int, proto string) error {
		return w.pull(ctx, w.broker, s, "", proto)
	})
	sc.Step(pattern(`^the (offerer|unlisted agent|collector) offers share (\d+) to the collector$`), func(ctx context.Context, who string, s int) error {
		return w.offer(ctx, w.role(who), s, "", w.mine, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) of another challenge to the collector$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "chal-not-the-live-round", w.mine, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) to another agent$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "", w.broker, true)
	})
	sc.Step(pattern(`^the offerer offers share (\d+) without share_hex to the collector$`), func(ctx context.Context, s int) error {
		return w.offer(ctx, w.other, s, "", w.mine, false)
	})
	sc.Step(pattern(`^the answer releases the share with code "([^"]*)"$`), w.released)
	sc.Step(pattern(`^the answer accepts the offer with code "([^"]*)"$`), w.accepted)
	sc.Step(pattern(`^the answer refuses with (\d+) "([^"]*)"$`), w.refused)
	sc.Step(pattern(`^the refusal names the broker and the grace remaining$`), w.namesBroker)
	sc.Step(pattern(`^the refusal body carries ok false, the protocol, a code and a reason$`), w.refusalBody)
	sc.Step(pattern(`^the runner reads the responder's discovery document$`), w.readDiscovery)
	sc.Step(pattern(`^it names abp-share-exchange/1 and a platform$`), w.discoveryNames)
	sc.Step(pattern(`^(\d+) seconds pass$`), w.secondsPass)
	sc.Step(pattern(`^every response so far matched the OpenAPI document$`), w.openAPIClean)
}

// role maps a step's word to an agent.
func (w *world) role(who string) string {
	switch who {
	case "broker":
		return w.broker
	case "non-broker", "offerer":
		return w.other
	case "unlisted agent":
		return w.unlisted
	}
	return w.mine // holder, collector
}

// setup plays a board on the platform: three registered agents, the
// responder's own (the highest agent_id, so it is never the broker) on
// share 2, the other two on 3 and 5; all three listed, the responder's
// agent with the responder's URL. A fourth agent stays unlisted.
func (w *world) setup(ctx context.Context, holder, combinable bool) error {
	p, err := openPlatform(ctx, w.env)
	if err != nil {
		return err
	}
	w.p = p
	v, err := w.env.Shared.Once("share-exchange-run", func() (any, error) { return &runState{listed: map[string]bool{}}, nil })
	if err != nil {
		return err
	}
	st := v.(*runState)
	if err := p.fresh(ctx, st); err != nil {
		return err
	}
	ids := make([]string, 4)
	for i := range ids {
		if ids[i], err = p.register(ctx); err != nil {
			return err
		}
	}
	w.unlisted = ids[3]
	team := ids[:3]
	sort.Strings(team)
	w.broker, w.other, w.mine = team[0], team[1], team[2]
	// As holder, the broker and the other member hold 3 and 5; as
	// collector, the offerer (other) holds 3 and the third member 5. The
	// member holding 5 stays share-less on a board that must not combine.
	shares := map[string]int{w.mine: 2, w.broker: 3, w.other: 5}
	if !holder {
		shares = map[string]int{w.mine: 2, w.other: 3, w.broker: 5}
	}
	for agent, share := range shares {
		if share == 5 && !combinable {
			continue
		}
		h, err := p.solve(ctx, agent, share)
		if err != nil {
			return err
		}
		w.hex[agent] = map[int]string{share: h}
	}
	if err := w.adopt(ctx); err != nil {
		return err
	}
	for _, a := range team {
		contact := "https://collector.example/" + a
		if a == w.mine {
			contact = w.env.HTTP.BaseURL()
		}
		if err := p.list(ctx, st, a, contact); err != nil {
			return err
		}
	}
	w.setupAt = time.Now()
	return nil
}

// adopt hands the responder its agent and shares through the reference's
// control surface (SX-CONTROL); a responder without one cannot be set up.
func (w *world) adopt(ctx context.Context) error {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/control/adopt",
		JSON: map[string]any{"agent_id": w.mine, "shares": w.hex[w.mine]}})
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK {
		return verdict.Skipf("the responder has no control surface (SX-CONTROL): it cannot play the runner's agent")
	}
	return nil
}

func (w *world) send(ctx context.Context, body map[string]any) error {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/", JSON: body})
	if err != nil {
		return err
	}
	w.Last, w.body = resp, map[string]any{}
	_ = json.Unmarshal(resp.Body, &w.body)
	if body["challenge_id"] == w.p.cid && w.body["code"] == "stale_round" {
		return w.rotatedUnder(ctx)
	}
	return nil
}

// rotatedUnder turns a stale_round answer to an exchange naming the round
// the runner read as live into a skip when the platform's registry shows
// the round moved on: the round may rotate between a board read and a
// pull ("challenge_id is not the live round"), and serve --faults brings
// exactly that about. If the registry still names the round, the answer
// is left for the check to judge.
func (w *world) rotatedUnder(ctx context.Context) error {
	was := w.p.cid
	if err := w.p.live(ctx); err != nil || w.p.cid == was {
		w.p.cid = was
		return nil
	}
	return verdict.Skipf("the round rotated under the check: the exchange named %s, now %s is live (SX-STALE)", was, w.p.cid)
}

func (w *world) pull(ctx context.Context, requester string, share int, cid, proto string) error {
	if cid == "" {
		cid = w.p.cid
	}
	return w.send(ctx, map[string]any{"protocol": proto, "challenge_id": cid, "round": 0, "requester": requester, "agent_id": w.mine, "share_index": share})
}

func (w *world) offer(ctx context.Context, from string, share int, cid, to string, withHex bool) error {
	if cid == "" {
		cid = w.p.cid
	}
	body := map[string]any{"protocol": rsx.Protocol, "kind": "offer", "challenge_id": cid, "round": 0, "agent_id": from, "to": to, "share_index": share}
	if withHex {
		h := w.hex[from][share]
		if h == "" {
			h = strings.Repeat("ab", 33) // a share the offerer does not hold
		}
		body["share_hex"] = h
	}
	return w.send(ctx, body)
}

func (w *world) released(code string) error {
	want := w.hex[w.mine][2]
	if w.Last.Status != http.StatusOK || w.body["ok"] != true || w.body["code"] != code || w.body["share_hex"] != want || w.body["protocol"] != rsx.Protocol {
		return verdict.Failf(w.rule, fmt.Sprintf("200 {ok: true, code %s, share_hex}", code), w.Last.Status, "%s", w.Last.Body)
	}
	return nil
}

func (w *world) accepted(code string) error {
	if w.Last.Status != http.StatusOK || w.body["ok"] != true || w.body["code"] != code || w.body["kind"] != "offer" {
		return verdict.Failf(w.rule, fmt.Sprintf("200 {ok: true, kind: offer, code %s}", code), w.Last.Status, "%s", w.Last.Body)
	}
	return nil
}

func (w *world) refused(status int, code string) error {
	if w.Last.Status != status || w.body["code"] != code || w.body["ok"] != false {
		return verdict.Failf(w.rule, fmt.Sprintf("%d %s", status, code), fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
	}
	if _, leaked := w.body["share_hex"]; leaked && w.body["kind"] != "offer" {
		return verdict.Failf(w.rule, "no share_hex in a refusal", "share_hex", "")
	}
	return nil
}

func (w *world) namesBroker() error {
	g, _ := w.body["grace_remaining_s"].(float64)
	if w.body["broker"] != w.broker || g <= 0 || g > 30 {
		return verdict.Failf("SX-NOT-BROKER", "broker "+w.broker+" and 0 < grace_remaining_s <= 30", fmt.Sprintf("%v, %v", w.body["broker"], w.body["grace_remaining_s"]), "")
	}
	return nil
}

func (w *world) refusalBody() error {
	reason, _ := w.body["reason"].(string)
	if w.Last.Status/100 != 4 || w.body["ok"] != false || w.body["protocol"] != rsx.Protocol || w.body["code"] == nil || reason == "" {
		return verdict.Failf("SX-REFUSED-BODY", "{ok: false, protocol, code, reason}", string(w.Last.Body), "")
	}
	return nil
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

func (w *world) secondsPass(n int) error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock")
	}
	w.env.Clock.Advance(secondsDuration(n))
	return nil
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
