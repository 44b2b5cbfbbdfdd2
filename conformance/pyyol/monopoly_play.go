package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/driver"

	"github.com/agentgames/conformance/conformance/verdict"
)

// monoView is a Monopoly turn view, read loosely (games.md "Turn view";
// the state's layout: monopoly_view_decode.go).
type monoView struct {
	Seat         *int       `json:"seat"`
	Phase        string     `json:"phase"`
	LegalActions []string   `json:"legal_actions"`
	State        *monoState `json:"state"`
}

// monoTurn is one turn the runner answered: the view and the move.
type monoTurn struct {
	view monoView
	// body is the view as it came, and tree the same decoded (decodeJSON),
	// for the referee's search by value.
	body json.RawMessage
	tree any
	move map[string]any
	// after are the events between this answer and the next turn.
	after []frame
	// seen is how many events had arrived when the turn came.
	seen int
	// probe marks a move the even-build rules forbid, sent to see it
	// refused (PYYOL-MONO-ACT-BUILD).
	probe bool
	// late marks an answer that may have reached the gateway after its
	// timeout; its move and probe are then cleared (answerClock).
	late bool
}

// monoRun is one Monopoly match played by the kit as an agent.
type monoRun struct {
	g         *gwRun
	practice  map[string]any
	seat      int
	init      *frame
	initRules map[string]any // init's rule set, decoded once (rules)
	turns     []*monoTurn
	events    []frame
	end       *frame
	// refuseFirst answers the first turn with a made-up action.
	refuseFirst bool
	// declined is set once the agent declined a property (to see an auction).
	declined bool
	// unmortgaged is set once the agent lifted a mortgage.
	unmortgaged bool
	// proposals counts the agent's trade offers: a gift, then a request.
	proposals int
	// bid is set once the agent raised an auction by $1.
	bid bool
	// jailRolls counts the agent's roll_jail answers (it tries three).
	jailRolls int
	// style picks the play policy: "" the default, styleDealer or
	// styleSpendthrift (monopoly_styles.go).
	style string
	// answers counts the trades put to the agent (accept, reject, counter
	// in turn); sold is set once the dealer sold a house.
	answers int
	sold    bool
	// probed is set once the dealer tried an uneven hotel; probing marks
	// the move the policy just chose as that probe.
	probed, probing bool
	// clock tells the answers the gateway surely counted (monopoly_late.go).
	clock answerClock
	// ref is the shadow referee's verdict and the states its matches
	// reached, kept across the matches of a scenario (referee_states.go).
	ref *refereeLog
}

// maxMonoDecisions bounds the agent's decisions in one match: a match
// still going past it never ends (PYYOL-MONO-WIN-TURN-CAP).
const maxMonoDecisions = 20000

// registerMonopoly runs the handshake listing only monopoly, with the
// practice options of PYYOL-MONO-REF-PRACTICE.
func (m *monoRun) registerMonopoly(ctx context.Context) error {
	g := m.g
	hello, err := g.greet(ctx)
	if err != nil {
		return err
	}
	if hello.T != "hello" {
		return verdict.Failf("PYYOL-WS-HELLO", `{"t":"hello","version":"1.0"}`, string(hello.wire), "the first frame")
	}
	reg := map[string]any{"t": "register", "agent_id": g.agentID, "token": g.token, "agent_name": "conformance-kit",
		"version": "1.0.0", "games": []string{"monopoly"}, "sdk_version": "conformance", "practice": m.practice}
	m.clock.registered(g.env)
	if err := g.ws.Send(ctx, reg); err != nil {
		return err
	}
	for {
		f, err := m.next(ctx, true)
		if err != nil {
			return err
		}
		if f.T == "registered" {
			return nil
		}
		if f.T == "error" {
			return verdict.Failf("PYYOL-WS-REGISTERED", "registered", string(f.wire), "the answer to register")
		}
	}
}

// next reads one frame of the match. Before the match has started,
// silence until the deadline is a skip (when matches start is the
// platform's choice); after, silence past the wait limit is a wedge.
func (m *monoRun) next(ctx context.Context, started bool) (frame, error) {
	by := m.g.frameBy()
	if !started {
		by = m.g.matchBy(ctx)
	}
	raw, err := m.g.read(ctx, by)
	if errors.Is(err, driver.ErrTimeout) && !started {
		return frame{}, verdict.Skipf("no Monopoly match started for the agent within %v (--deadline)", matchDeadline(m.g.env))
	}
	if errors.Is(err, driver.ErrTimeout) {
		return frame{}, verdict.Failf("PYYOL-MONO-FALLBACK", "the match going on", "silence for "+waitLimit(m.g.env).String(), "the gateway sent nothing: the match wedged")
	}
	if err != nil {
		return frame{}, err
	}
	f, readings, err := decodeFrame(raw)
	if err != nil {
		return frame{}, err
	}
	m.g.touch(f)
	m.g.layoutNote(readings)
	// spec/pyyol/frames judges the frame, its view against
	// monopoly-view.json and its events against monopoly-event.json.
	tree, verr := checkFrameTree(raw, f.T, "monopoly")
	if err := judgeFrame(verr, m.g.env.HTTP.Recorder().Finding); err != nil {
		return frame{}, err
	}
	f.tree = tree
	return f, nil
}

// pastCap fails a turn that starts beyond the announced turn cap at
// once, so a game that never ends is caught without playing it out
// (PYYOL-MONO-WIN-TURN-CAP).
func (m *monoRun) pastCap(e frame) error {
	limit, capped := m.rule("turn_cap")
	if turn, ok := fieldInt(payload(e), "turn"); capped && e.Type == "turn_started" && ok && turn > limit {
		return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", fmt.Sprintf("the game over by turn %d", limit), fmt.Sprintf("turn %d started", turn), "event %d", e.Seq)
	}
	return nil
}

// answer decodes a turn's view and sends the policy's move.
func (m *monoRun) answer(ctx context.Context, f frame) error {
	var view monoView
	if err := json.Unmarshal(f.Body, &view); err != nil {
		return verdict.Failf("PYYOL-MONO-VIEW-STATE", "a turn view {seat, phase, legal_actions, state}", string(f.wire), "a Monopoly turn")
	}
	if len(m.turns) >= maxMonoDecisions {
		return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", "a match that ends", fmt.Sprintf("%d decisions and counting", len(m.turns)), "the game never ended")
	}
	t := &monoTurn{view: view, body: f.Body, tree: f.bodyTree(), move: m.policy(view), seen: len(m.events), probe: m.probing}
	m.probing = false
	if m.refuseFirst && len(m.turns) == 0 {
		t.move = map[string]any{"action": "fly"}
	}
	m.turns = append(m.turns, t)
	m.clock.answeringTurn(t)
	return m.g.ws.Send(ctx, moveResponse(f.ID, t.move))
}

// policy picks from legal_actions (PYYOL-MONO-LEGAL-ACCEPTED): it
// declines its first property (so an auction opens) and buys the rest,
// mortgages what it owns (so rent on mortgaged squares shows), gives a
// dollar away on the trade floor of its first turns (so trades execute),
// and otherwise plays the safe choice.
func (m *monoRun) policy(v monoView) map[string]any {
	switch m.style {
	case styleDealer:
		return m.dealerPolicy(v)
	case styleSpendthrift, styleSpendthriftBuyer, styleMiser:
		return m.spendthriftPolicy(v)
	case styleCollector:
		return m.collectorPolicy(v)
	case stylePauper:
		return m.pauperPolicy(v)
	}
	has := func(a string) bool { return slices.Contains(v.LegalActions, a) }
	owned := func(mortgaged bool) int {
		if v.State == nil {
			return -1
		}
		for _, h := range v.State.Holdings {
			if h.Owner == m.seat && h.Mortgaged == mortgaged && h.Houses == 0 {
				return h.Square
			}
		}
		return -1
	}
	players := 0
	if v.State != nil {
		players = len(v.State.Players)
	}
	switch {
	case has("propose_trade") && v.Phase == "trade" && v.State != nil && v.State.Turn <= 3*players && players > 1:
		target := (m.seat + 1) % players
		give, want := 1, 0
		if m.proposals%2 == 1 {
			give, want = 0, 1 // a request the bots turn down
		}
		m.proposals++
		return map[string]any{"action": "propose_trade", "trade": map[string]any{"proposer": m.seat, "target": target,
			"give_props": []int{}, "give_cash": give, "want_props": []int{}, "want_cash": want}}
	case has("roll_jail") && m.jailRolls < 3:
		m.jailRolls++
		return map[string]any{"action": "roll_jail"}
	case has("bid") && !m.bid && openingBid(v):
		m.bid = true
		return map[string]any{"action": "bid", "amount": 1}
	case has("decline") && !m.declined:
		m.declined = true
		return map[string]any{"action": "decline"}
	case has("buy"):
		return map[string]any{"action": "buy"}
	case has("unmortgage") && !m.unmortgaged && owned(true) >= 0:
		m.unmortgaged = true
		return map[string]any{"action": "unmortgage", "property": owned(true)}
	case has("mortgage") && owned(false) >= 0:
		return map[string]any{"action": "mortgage", "property": owned(false)}
	}
	for _, a := range []string{"end_turn", "roll", "pay_jail", "roll_jail", "pass", "skip_trade", "reject_trade", "decline"} {
		if has(a) {
			return map[string]any{"action": a}
		}
	}
	if len(v.LegalActions) > 0 {
		return map[string]any{"action": v.LegalActions[len(v.LegalActions)-1]}
	}
	return map[string]any{"action": "end_turn"}
}

// openingBid reports whether the view shows an auction no one has bid in
// yet. The docs say a bid raises the high bid by amount ("Raise the
// current high bid by `amount`", PYYOL-MONO-ACT-BID); the real platform's
// engine takes amount as the new high bid. Into a high bid of 0 a bid of
// 1 is the same bid under both readings, so the runner bids only there
// and no deployment fails for taking the platform's reading
// (PYYOL-MONO-REF-AUCTION); elsewhere it passes.
func openingBid(v monoView) bool {
	return v.State != nil && v.State.Auction != nil && v.State.Auction.HighBid == 0
}
