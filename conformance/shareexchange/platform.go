package shareexchange

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// platform drives the bounty platform the responder reads: the runner
// plays the board by registering, solving and listing agents on it.
type platform struct {
	http *driver.HTTP
	cid  string
	// round is the live round's number, as the registry names it: every
	// exchange carries it ("round": "the live round number"), so a stale
	// probe differs from a live one in its challenge_id alone (SX-STALE,
	// SX-OFFER-STALE).
	round int
	man   []bounty.Puzzle
	// closed is the round fresh closed: a challenge_id the platform still
	// reads (closed rounds stay readable) but that is not the live one;
	// closedRound is its number.
	closed      string
	closedRound int
}

// runState lives across scenarios: rotators that open fresh rounds and
// every agent the runner listed.
type runState struct {
	mu       sync.Mutex
	rotators []string
	listed   map[string]bool
}

// openPlatform reads the responder's discovery document for the platform
// it reads (SX-CONTROL) and binds a driver to it.
func openPlatform(ctx context.Context, env *suite.Env) (*platform, error) {
	resp, err := env.HTTP.Do(ctx, driver.Request{Method: http.MethodGet, Path: "/"})
	if err != nil {
		return nil, err
	}
	var d struct {
		Platform string `json:"platform"`
	}
	if resp.Status != http.StatusOK || resp.Decode("SX-CONTROL", &d) != nil || d.Platform == "" {
		return nil, verdict.Skipf("the responder names no platform it reads (SX-CONTROL): nothing to play the board on")
	}
	base := d.Platform
	opts := driver.HTTPOptions{BaseURL: base, Secrets: env.HTTP.Secrets()}
	if strings.HasPrefix(base, "/") {
		opts.BaseURL = strings.TrimRight(env.HTTP.BaseURL(), "/") + base
	} else {
		// A platform the agent names elsewhere is called on its behalf:
		// no private, loopback or metadata address unless --allow-private.
		opts.Client = sxserver.Client(env.Settings.Bool(allowPrivateFlag.Name), 30*time.Second)
	}
	return &platform{http: driver.NewHTTP(opts).WithRecorder(env.HTTP.Recorder())}, nil
}

// allowPrivateFlag is --allow-private: the runner may then call private
// and loopback addresses an agent names (local testing).
var allowPrivateFlag = suite.Flag{Name: "allow-private", Kind: suite.FlagBool,
	Usage: "share-exchange: let calls made on an agent's behalf reach private and loopback addresses (local testing)"}

func (p *platform) do(ctx context.Context, method, path string, body, v any) error {
	resp, err := p.http.Do(ctx, driver.Request{Method: method, Path: path, JSON: body})
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK {
		return verdict.Errorf("the platform refused %s %s (%d): the board cannot be played", method, path, resp.Status)
	}
	if v == nil {
		return nil
	}
	return resp.Decode("SX-CONTROL", v)
}

func (p *platform) register(ctx context.Context) (string, error) {
	var ch struct {
		Token string `json:"reg_token"`
		Bits  int    `json:"pow_bits"`
	}
	if err := p.do(ctx, http.MethodPost, "/register/challenge", nil, &ch); err != nil {
		return "", err
	}
	var out struct {
		AgentID string `json:"agent_id"`
	}
	err := p.do(ctx, http.MethodPost, "/register", map[string]string{"reg_token": ch.Token, "nonce": bountysolve.Registration(ch.Token, ch.Bits)}, &out)
	return out.AgentID, err
}

// live reads the active challenge and its puzzles.
func (p *platform) live(ctx context.Context) error {
	var reg struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
			Round       int    `json:"round"`
		} `json:"active"`
	}
	if err := p.do(ctx, http.MethodGet, "/challenges", nil, &reg); err != nil {
		return err
	}
	p.cid, p.round = reg.Active.ChallengeID, reg.Active.Round
	var man struct {
		Puzzles []bounty.Puzzle `json:"puzzles"`
	}
	err := p.do(ctx, http.MethodGet, "/challenge/"+p.cid+"/manifest", nil, &man)
	p.man = man.Puzzles
	return err
}

func (p *platform) solve(ctx context.Context, agent string, share int) (string, error) {
	for _, pz := range p.man {
		if pz.ShareIndex == share {
			var out struct {
				ShareHex string `json:"share_hex"`
			}
			err := p.do(ctx, http.MethodPost, "/challenge/"+p.cid+"/solve", map[string]any{"agent_id": agent, "share_index": share, "solution": bountysolve.Puzzle(pz)}, &out)
			return out.ShareHex, err
		}
	}
	return "", verdict.Errorf("the platform's manifest has no share %d", share)
}

func (p *platform) list(ctx context.Context, st *runState, agent, contact string) error {
	if err := p.do(ctx, http.MethodPost, "/challenge/"+p.cid+"/peers", map[string]any{"agent_id": agent, "contact": contact}, nil); err != nil {
		return err
	}
	st.mu.Lock()
	st.listed[agent] = true
	st.mu.Unlock()
	return nil
}

// delist removes agent's listing ({agent_id, remove: true}) and forgets
// it, so the next fresh board does not remove it again.
func (p *platform) delist(ctx context.Context, st *runState, agent string) error {
	if err := p.do(ctx, http.MethodPost, "/challenge/"+p.cid+"/peers", map[string]any{"agent_id": agent, "remove": true}, nil); err != nil {
		return err
	}
	st.mu.Lock()
	delete(st.listed, agent)
	st.mu.Unlock()
	return nil
}

// fresh wins the live round with the run's rotators (win) so the
// scenario's board holds only its own shares, and delists every agent the
// runner listed before.
func (p *platform) fresh(ctx context.Context, st *runState) error {
	if err := p.live(ctx); err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := p.win(ctx, st); err != nil {
		return err
	}
	for id := range st.listed {
		if err := p.do(ctx, http.MethodPost, "/challenge/"+p.cid+"/peers", map[string]any{"agent_id": id, "remove": true}, nil); err != nil {
			return err
		}
	}
	st.listed = map[string]bool{}
	return nil
}

// win closes the live round with the run's rotators (shares 2, 3 and 5,
// registered once per run) and reads the round that opens: the closed
// one is kept (closed, closedRound). Listings carry over; shares do not.
// The caller holds st.mu.
func (p *platform) win(ctx context.Context, st *runState) error {
	for len(st.rotators) < 3 {
		id, err := p.register(ctx)
		if err != nil {
			return err
		}
		st.rotators = append(st.rotators, id)
	}
	var subs []map[string]any
	for i, share := range []int{2, 3, 5} {
		h, err := p.solve(ctx, st.rotators[i], share)
		if err != nil {
			return err
		}
		subs = append(subs, map[string]any{"agent_id": st.rotators[i], "share_index": share, "share_hex": h})
	}
	if err := p.do(ctx, http.MethodPost, "/challenge/"+p.cid+"/combine", map[string]any{"submissions": subs}, nil); err != nil {
		return err
	}
	p.closed, p.closedRound = p.cid, p.round
	return p.live(ctx)
}
