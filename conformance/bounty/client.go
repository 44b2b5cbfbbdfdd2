package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// client speaks the bounty's HTTP surface for one scenario.
type client struct {
	// Scenario is the per-scenario base; its Last is the answer every
	// call keeps.
	suite.Scenario[suite.NoState]
	env *suite.Env
	// overMCP sends every call the 13 MCP tools cover through them, and
	// the rest over HTTP (--transport mcp); mcpAgents plays only these
	// agents' calls over MCP (the mixed-coalition check).
	overMCP   bool
	mcpAgents map[string]bool
	// secrets are every agent_secret this scenario saw disclosed, watched
	// in every later public read (BOUNTY-REG-SECRET).
	secrets []string
	// closedByRun are the challenges this scenario closed with its own
	// winning combine (see closedUnder).
	closedByRun map[string]bool
	// earned are the shares and keys the runner earned, searched for in
	// every later answer (BOUNTY-NO-SECRETS).
	earned heldSecrets
	// acts are what the runner did in each round, by challenge
	// (BOUNTY-METRICS-COUNTS).
	acts map[string]*roundActs
	// solutions are the solutions the runner sent long enough to search
	// for by value (BOUNTY-METRICS).
	solutions []string
}

// refusal is the body of a 4xx answer.
type refusal struct {
	OK     *bool  `json:"ok"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// call sends one request and keeps the answer as the scenario's last.
func (c *client) call(ctx context.Context, method, path string, body any) (*driver.Response, error) {
	if tool, args, ok := toolFor(method, path, body); ok && c.viaMCP(args) {
		resp, err := c.callTool(ctx, tool, args)
		if err != nil {
			return resp, err
		}
		c.noteAct(method, path, body, resp)
		return resp, c.answered(ctx, method, path, body, resp)
	}
	resp, err := c.env.HTTP.Do(ctx, driver.Request{Method: method, Path: path, JSON: body})
	if err != nil {
		return resp, err
	}
	c.noteAct(method, path, body, resp)
	return resp, c.answered(ctx, method, path, body, resp)
}

// answered keeps an answer as the scenario's last and looks at it the
// way every answer is looked at: no share or key the runner holds in it,
// a win noted, a 410 on a round another coalition closed turned into a
// skip.
func (c *client) answered(ctx context.Context, method, path string, body any, resp *driver.Response) error {
	c.Last = resp
	if err := c.leakIn(method, path, body, resp); err != nil {
		return err
	}
	c.noteWin(method, path, resp)
	return c.closedUnder(ctx, method, path, resp)
}

// viaMCP reports whether a call goes over MCP.
func (c *client) viaMCP(args map[string]any) bool {
	if c.overMCP {
		return true
	}
	id, _ := args["agent_id"].(string)
	return id != "" && c.mcpAgents[id]
}

// want2xx decodes a success answer into v, or fails rule.
func (c *client) want2xx(ctx context.Context, rule, method, path string, body, v any) error {
	resp, err := c.call(ctx, method, path, body)
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Failf(rule, "2xx", resp.Status, "%s %s: %s", method, path, c.clip(resp.Body))
	}
	if v == nil {
		return nil
	}
	return resp.Decode(rule, v)
}

// note records a soft finding: a REFERENCE choice the target departs
// from, which warns without ending the check, so the MUST conditions after
// it are still decided.
func (c *client) note(rule string, expected, observed any, detail string, args ...any) {
	if rec := c.env.HTTP.Recorder(); rec != nil {
		rec.Finding(verdict.Failf(rule, expected, observed, detail, args...))
	}
}

// clip shows a body in a failure: every secret the run learnt is redacted
// before the body is cut, so no key is ever half shown.
func (c *client) clip(b []byte) string { return c.env.HTTP.Secrets().Clip(b) }

// agent is a registered identity the runner plays.
type agent struct {
	ID     string
	Secret string
}

// register runs the whole registration flow (BOUNTY-REG-CHALLENGE,
// BOUNTY-REG-POW) and returns the new agent.
func (c *client) register(ctx context.Context) (agent, error) {
	ch, err := c.regChallenge(ctx)
	if err != nil {
		return agent{}, err
	}
	nonce := bountysolve.Registration(ch.Token, ch.Bits)
	var out struct {
		OK      bool   `json:"ok"`
		AgentID string `json:"agent_id"`
		Secret  string `json:"agent_secret"`
	}
	if err := c.want2xx(ctx, "BOUNTY-REG-POW", http.MethodPost, "/register", map[string]string{"reg_token": ch.Token, "nonce": nonce}, &out); err != nil {
		return agent{}, err
	}
	if !out.OK || out.AgentID == "" {
		return agent{}, verdict.Failf("BOUNTY-REG-POW", "{ok: true, agent_id}", c.clip(c.Last.Body), "a valid proof")
	}
	if out.Secret != "" {
		c.env.HTTP.Secrets().Add(out.Secret)
		c.secrets = append(c.secrets, out.Secret)
	}
	return agent{ID: out.AgentID, Secret: out.Secret}, nil
}

type regChallenge struct {
	Token string `json:"reg_token"`
	Bits  int    `json:"pow_bits"`
}

func (c *client) regChallenge(ctx context.Context) (regChallenge, error) {
	var ch regChallenge
	if err := c.want2xx(ctx, "BOUNTY-REG-CHALLENGE", http.MethodPost, "/register/challenge", nil, &ch); err != nil {
		return ch, err
	}
	if ch.Token == "" || ch.Bits <= 0 || ch.Bits > 32 {
		return ch, verdict.Failf("BOUNTY-REG-CHALLENGE", "{reg_token, pow_bits} with 0 < pow_bits <= 32", c.clip(c.Last.Body), "a runner cannot solve more")
	}
	c.env.HTTP.Secrets().Add(ch.Token)
	return ch, nil
}

// live reads the active challenge from the registry (BOUNTY-REGISTRY).
func (c *client) live(ctx context.Context) (string, int, error) {
	var out struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
			Round       int    `json:"round"`
		} `json:"active"`
	}
	if err := c.want2xx(ctx, "BOUNTY-REGISTRY", http.MethodGet, "/challenges", nil, &out); err != nil {
		return "", 0, err
	}
	if out.Active.ChallengeID == "" {
		return "", 0, verdict.Failf("BOUNTY-REGISTRY", "an active challenge_id", c.clip(c.Last.Body), "GET /challenges")
	}
	return out.Active.ChallengeID, out.Active.Round, nil
}

// manifestDoc is the per-challenge manifest.
type manifestDoc struct {
	ChallengeID string `json:"challenge_id"`
	Round       int    `json:"round"`
	Threshold   struct {
		K int `json:"k"`
		N int `json:"n"`
	} `json:"threshold"`
	// Bounty is kept as it came: a member of another type here (real_money
	// "false") is BOUNTY-PLAY-MONEY's to judge, not a manifest that
	// cannot be read (BOUNTY-MANIFEST).
	Bounty  map[string]any  `json:"bounty"`
	Puzzles []bounty.Puzzle `json:"puzzles"`
}

func (c *client) manifest(ctx context.Context, cid string) (manifestDoc, error) {
	var m manifestDoc
	err := c.want2xx(ctx, "BOUNTY-MANIFEST", http.MethodGet, "/challenge/"+cid+"/manifest", nil, &m)
	return m, err
}

// puzzleOf finds share i's puzzle in a manifest.
func (m manifestDoc) puzzleOf(i int) (bounty.Puzzle, error) {
	for _, p := range m.Puzzles {
		if p.ShareIndex == i {
			return p, nil
		}
	}
	return bounty.Puzzle{}, verdict.Failf("BOUNTY-MANIFEST", fmt.Sprintf("a puzzle for share %d", i), len(m.Puzzles), "puzzles in the manifest")
}

// solveBody is a POST solve body.
func solveBody(a agent, share int, sol bounty.Solution) map[string]any {
	return map[string]any{"agent_id": a.ID, "share_index": share, "solution": sol}
}

// solveAs solves share i for a with a correct solution; it must be
// accepted with a share_hex (BOUNTY-SOLVE-SHARE).
func (c *client) solveAs(ctx context.Context, cid string, m manifestDoc, a agent, i int) (string, error) {
	p, err := m.puzzleOf(i)
	if err != nil {
		return "", err
	}
	var out struct {
		ShareHex string `json:"share_hex"`
	}
	sol := bountysolve.Puzzle(p)
	c.noteSolution(sol)
	if err := c.want2xx(ctx, ruleOfType(p.Type), http.MethodPost, "/challenge/"+cid+"/solve", solveBody(a, i, sol), &out); err != nil {
		return "", err
	}
	if out.ShareHex == "" {
		return "", verdict.Failf("BOUNTY-SOLVE-SHARE", "{share_hex}", c.clip(c.Last.Body), "an accepted solve")
	}
	c.noteShare(cid, i, out.ShareHex)
	return out.ShareHex, nil
}

// ruleOfType names the rule a correct solution of a puzzle type relies on.
func ruleOfType(ptype string) string {
	switch ptype {
	case bounty.TypeHash:
		return "BOUNTY-PUZZLE-HASH"
	case bounty.TypeModular:
		return "BOUNTY-PUZZLE-MODULAR"
	}
	return "BOUNTY-PUZZLE-DECODE"
}

// boardDoc is GET peers.
type boardDoc struct {
	ChallengeID string       `json:"challenge_id"`
	Round       int          `json:"round"`
	K           int          `json:"k"`
	N           int          `json:"n"`
	Peers       []peerDoc    `json:"peers"`
	Intents     intentsDoc   `json:"intents"`
	Proximity   proximityDoc `json:"coalition_proximity"`
	raw         []byte
	// sent is when the runner asked for this board (the run's clock when
	// it holds the reference's): its clocks read no earlier than that.
	sent time.Time
}

type peerDoc struct {
	entryWire
	Message         string          `json:"message"`
	WorkingOnStatus string          `json:"working_on_status"`
	TrackRecord     map[string]*int `json:"track_record"`
}

type intentsDoc struct {
	Status  string              `json:"status"`
	ByShare map[string][]string `json:"by_share"`
}

type proximityDoc struct {
	bounty.Proximity
	Broker *string `json:"broker"`
}

func (c *client) board(ctx context.Context, cid string) (*boardDoc, error) {
	b, err := c.boardAsServed(ctx, cid)
	if err != nil {
		return b, err
	}
	return b, c.holdingsAsSolved(cid, b)
}

// boardAsServed reads the board and checks its TTL and intents only: for
// a step that judges the holdings itself under its own rule
// (boardHolding).
func (c *client) boardAsServed(ctx context.Context, cid string) (*boardDoc, error) {
	b, err := c.boardUnjudged(ctx, cid)
	if err != nil {
		return nil, err
	}
	return b, b.servedLive()
}

// boardUnjudged reads the board and judges nothing in it: for a step that
// judges one part of it under its own rule before the checks every board
// gets (carriedOver).
func (c *client) boardUnjudged(ctx context.Context, cid string) (*boardDoc, error) {
	b := boardDoc{sent: c.now()}
	if err := c.want2xx(ctx, "BOUNTY-PEERS-LIST", http.MethodGet, "/challenge/"+cid+"/peers", nil, &b); err != nil {
		return nil, err
	}
	b.raw = c.Last.Body
	return &b, nil
}

// servedLive: every listing within its TTL and the intents held to the
// listings (BOUNTY-PEERS-TTL, BOUNTY-INTENT).
func (b *boardDoc) servedLive() error {
	if err := b.withinTTL(); err != nil {
		return err
	}
	return b.intentsLive()
}

// intentsLive: the intents block lists live claimants per share, so each
// claimant it names is a listing on the same board claiming that share,
// and each listing's claim is in it (BOUNTY-INTENT), checked on every
// board the runner reads: a claim kept after its listing went (a delisting
// that left it) is seen wherever the board is next read. A board whose
// intents are not under by_share is unchecked here.
func (b *boardDoc) intentsLive() error {
	if b.Intents.ByShare == nil {
		return nil
	}
	for share, ids := range b.Intents.ByShare {
		for _, id := range ids {
			e, ok := b.entry(id)
			if !ok {
				return verdict.Failf("BOUNTY-INTENT", "live claimants only", id+" not on the board", "intents.by_share[%s]", share)
			}
			if e.WorkingOn == nil || strconv.Itoa(*e.WorkingOn) != share {
				return verdict.Failf("BOUNTY-INTENT", "the claimant's working_on "+share, claimText(e.WorkingOn), "intents.by_share[%s] names %s", share, id)
			}
		}
	}
	for _, e := range b.Peers {
		if e.WorkingOn != nil && *e.WorkingOn != 0 && !slices.Contains(b.Intents.ByShare[strconv.Itoa(*e.WorkingOn)], e.AgentID) {
			return verdict.Failf("BOUNTY-INTENT", e.AgentID+" among share "+strconv.Itoa(*e.WorkingOn)+"'s claimants", "absent", "the board's intents block")
		}
	}
	return nil
}

// withinTTL: no entry is shown past its 1800 s (BOUNTY-PEERS-TTL), checked
// on every board the runner reads.
func (b *boardDoc) withinTTL() error {
	for _, e := range b.Peers {
		if e.ExpiresInS <= 0 || e.ExpiresInS > bounty.TTLSeconds {
			return verdict.Failf("BOUNTY-PEERS-TTL", "0 < expires_in_s <= 1800 on every live listing", e.ExpiresInS, "%s", e.AgentID)
		}
	}
	return nil
}

// list posts a listing; the answer is returned whatever its status.
func (c *client) list(ctx context.Context, cid string, body map[string]any) (*driver.Response, error) {
	return c.call(ctx, http.MethodPost, "/challenge/"+cid+"/peers", body)
}

// nextMove reads next_move for agent.
func (c *client) nextMove(ctx context.Context, cid, agentID string) (bounty.Move, error) {
	var out struct {
		Move        bounty.Move `json:"next_move"`
		ChallengeID string      `json:"challenge_id"`
	}
	err := c.want2xx(ctx, "BOUNTY-NEXT-MOVE", http.MethodGet, "/challenge/"+cid+"/next_move?agent_id="+url.QueryEscape(agentID), nil, &out)
	if err == nil && out.Move.Move == bounty.MoveDone && out.ChallengeID != "" && out.ChallengeID != cid && !c.closedByRun[cid] {
		// the round closed under the check: next_move of a closed
		// challenge answers done with the live one (BOUNTY-NEXT-SPREAD)
		return out.Move, verdict.Skipf("the round closed under the check: next_move on %s answered done naming %s (another coalition won)", cid, out.ChallengeID)
	}
	return out.Move, err
}

// raw decodes any JSON answer into a generic value.
func raw(resp *driver.Response) map[string]any {
	var v map[string]any
	_ = json.Unmarshal(resp.Body, &v)
	return v
}

// now is the board's clock when the run holds it (the embedded
// reference's), else the runner's.
func (c *client) now() time.Time {
	if c.env.Clock != nil {
		return c.env.Clock.Now()
	}
	return time.Now()
}
