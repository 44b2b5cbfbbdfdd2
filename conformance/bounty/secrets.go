package bounty

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// heldSecrets are the shares the runner earned and the master keys it
// reconstructed from them, by challenge: what no platform response may
// carry (BOUNTY-NO-SECRETS), searched by value.
type heldSecrets struct {
	shares map[string]map[int]string // challenge -> share index -> share_hex
	keys   map[string]string         // challenge -> master key hex
}

// noteShare remembers a share the runner earned and, once k shares of a
// round are known, the key they reconstruct (the reference's own
// bounty.Combine).
func (c *client) noteShare(cid string, index int, shareHex string) {
	if c.earned.shares == nil {
		c.earned = heldSecrets{shares: map[string]map[int]string{}, keys: map[string]string{}}
	}
	if c.earned.shares[cid] == nil {
		c.earned.shares[cid] = map[int]string{}
	}
	c.earned.shares[cid][index] = strings.ToLower(shareHex)
	if len(c.earned.shares[cid]) < bounty.K || c.earned.keys[cid] != "" {
		return
	}
	var raw [][]byte
	for _, h := range c.earned.shares[cid] {
		if b, err := hex.DecodeString(h); err == nil {
			raw = append(raw, b)
		}
	}
	if key, err := bounty.Combine(raw); err == nil {
		c.earned.keys[cid] = hex.EncodeToString(key)
	}
}

// leakIn fails BOUNTY-NO-SECRETS when a response carries a share or key
// the runner holds, searched by value. A solve's answer returns its
// solver the share it solved, and a refused combine's may echo the shares
// submitted, so those (by share index) are not searched there; a winning
// combine's answer is searched too, but what it shows is a REFERENCE
// note at most (BOUNTY-REF-WIN-SECRETS), and what a closed round's reads
// show is left open. Everywhere else the live round's shares and key never appear
// ("secrets (shares, master key) are never shipped"; "the platform never
// carries shares between agents"), and metrics carry no round's shares at
// all ("No agent identities, contacts, shares, or solutions are exposed
// there").
func (c *client) leakIn(method, path string, body any, resp *driver.Response) error {
	if resp == nil {
		return nil
	}
	_, tail, _ := challengeOf(path)
	expected, what := c.leakOf(tail, ownShares(method, tail, body, resp.Status), resp.Body)
	switch {
	case what == "":
		return nil
	case method == http.MethodPost && tail == "combine" && resp.Status/100 == 2:
		// BOUNTY-REF-WIN-SECRETS: the winner already holds k shares, so
		// the key and every other share; the seed leaves this answer open.
		c.note("BOUNTY-REF-WIN-SECRETS", "a winning combine's answer without the key or a share it did not submit", what, "in %s %s", method, path)
		return nil
	}
	return verdict.Failf("BOUNTY-NO-SECRETS", expected, what, "in %s %s", method, path)
}

// leakOf searches body for a share (but the request's own) or a master
// key the runner holds, by value, and says what it found.
func (c *client) leakOf(tail string, own map[int]bool, body []byte) (expected, what string) {
	text := bytes.ToLower(body)
	for cid, shares := range c.earned.shares {
		if c.closedByRun[cid] && tail != "metrics" {
			continue
		}
		for i, h := range shares {
			if !own[i] && spelled(text, body, h) {
				return "no share_hex in any response but its solver's solve", "share " + strconv.Itoa(i) + " of " + cid
			}
		}
		if k := c.earned.keys[cid]; k != "" && spelled(text, body, k) {
			return "no key material in any response", "the master key of " + cid
		}
	}
	return "", ""
}

// spelled reports whether body (text is it in lower case) carries the
// bytes hexValue names, in hex of either case or in base64 (standard or
// URL alphabet, padded or not: how encoding/json and most stacks show
// bytes). A secret is searched by value, not by one spelling
// (BOUNTY-NO-SECRETS); 33 or 32 random bytes in any of these spellings
// cannot appear by chance.
func spelled(text, body []byte, hexValue string) bool {
	if bytes.Contains(text, []byte(hexValue)) {
		return true
	}
	raw, err := hex.DecodeString(hexValue)
	if err != nil || len(raw) < 16 {
		return false
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		// The unpadded form is a prefix of the padded one, so one search
		// covers both.
		if bytes.Contains(body, []byte(enc.EncodeToString(raw))) {
			return true
		}
	}
	return false
}

// ownShares are the share indices a request itself names whose values
// may come back in its answer: the share an accepted solve earned, the
// shares a combine submits. A refused solve earned nothing, so its answer
// is searched for its share too (BOUNTY-NO-SECRETS: a refusal that shows
// the share of a puzzle its caller did not solve ships the secret the
// solve guards).
func ownShares(method, tail string, body any, status int) map[int]bool {
	own := map[int]bool{}
	if method != http.MethodPost || (tail != "solve" && tail != "combine") || (tail == "solve" && status/100 != 2) {
		return own
	}
	raw, _ := json.Marshal(body)
	var req struct {
		Share       int `json:"share_index"`
		Submissions []struct {
			Share int `json:"share_index"`
		} `json:"submissions"`
	}
	_ = json.Unmarshal(raw, &req)
	own[req.Share] = true
	for _, s := range req.Submissions {
		own[s.Share] = true
	}
	return own
}

// readSurfaces reads every public surface of a round and of the platform
// (discovery, registry, manifest, each puzzle, status, metrics, peers,
// each member's next_move and profile, ledger, leaderboard): call searches
// each answer for the shares and key the runner holds (BOUNTY-NO-SECRETS).
// A path a deployment does not serve is not a finding here.
func (w *world) readSurfaces(ctx context.Context, closed bool) error {
	cid := w.cid
	if closed {
		cid = w.closed
	}
	c := "/challenge/" + cid
	paths := []string{"/.well-known/agent-puzzle-bounty.json", "/challenges", c + "/manifest", c + "/status", c + "/metrics", c + "/peers", "/ledger", "/leaderboard.json"}
	for i := 1; i <= bounty.N; i++ {
		paths = append(paths, c+"/puzzle/"+strconv.Itoa(i))
	}
	for _, a := range w.team {
		paths = append(paths, c+"/next_move?agent_id="+url.QueryEscape(a.ID), "/agents/"+a.ID)
	}
	for _, p := range paths {
		if _, err := w.call(ctx, http.MethodGet, p, nil); err != nil {
			return err
		}
	}
	return nil
}

// noSecretSeen: the runner held k shares of the round and its key while
// it read (every answer was searched as it came); without them the search
// proved nothing.
func (w *world) noSecretSeen() error {
	if w.earned.keys[w.closed] == "" {
		return verdict.Errorf("the runner reconstructed no master key of %s: nothing to search for", w.closed)
	}
	return nil
}
