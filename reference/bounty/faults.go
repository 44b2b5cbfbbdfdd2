package bounty

import (
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentgames/conformance/reference/pow"
)

// Break makes the engine violate the named rules on purpose. Only the
// tamper tests call it: each builds a broken platform and proves that the
// live runner catches the violation and names the rule. A new engine
// breaks nothing.
func (e *Engine) Break(rules ...string) {
	defer e.lock()()
	if e.faults == nil {
		e.faults = map[string]bool{}
	}
	for _, r := range rules {
		e.faults[r] = true
	}
}

// broken reports whether the engine was told to violate rule.
func (e *Engine) broken(rule string) bool { return e.faults[rule] }

// Breakable lists the rules Break knows how to violate.
var Breakable = []string{
	"BOUNTY-REG-CHALLENGE", "BOUNTY-REG-POW", "BOUNTY-REG-SECRET", "BOUNTY-MANIFEST", "BOUNTY-ROUND-OPEN-NOTICE",
	"BOUNTY-THRESHOLD", "BOUNTY-LADDER", "BOUNTY-PUZZLE-HASH", "BOUNTY-PUZZLE-MODULAR",
	"BOUNTY-PUZZLE-DECODE", "BOUNTY-SOLVE-SHARE", "BOUNTY-SHAMIR", "BOUNTY-COMBINE-AGENTS",
	"BOUNTY-COMBINE-SHARES", "BOUNTY-CREDIT", "BOUNTY-RECONSTRUCT", "BOUNTY-PAYOUT",
	"BOUNTY-PLAY-MONEY", "BOUNTY-ROTATION", "BOUNTY-STALE-410", "BOUNTY-CLOSED-READABLE",
	"BOUNTY-REGISTRY", "BOUNTY-IDENTITY-PERSIST", "BOUNTY-CARRYOVER", "BOUNTY-PEERS-LIST",
	"BOUNTY-PEERS-DELIST", "BOUNTY-PEERS-TTL", "BOUNTY-PEERS-REFRESH", "BOUNTY-CONTACT",
	"BOUNTY-HOLDINGS", "BOUNTY-INTENT", "BOUNTY-PROXIMITY", "BOUNTY-BROKER",
	"BOUNTY-TRACK-RECORD", "BOUNTY-ELECTION", "BOUNTY-NEXT-MOVE", "BOUNTY-METRICS",
	"BOUNTY-LEADERBOARD", "BOUNTY-REPUTATION", "BOUNTY-PROFILE-SECRET", "BOUNTY-PROFILE-NAME",
	"BOUNTY-PROFILE-NOTIFY", "BOUNTY-MCP-FLOW", "BOUNTY-MCP-TOOLS", "BOUNTY-MCP-NOTIFY", "BOUNTY-MCP-GET",
	"BOUNTY-MCP-VERSIONS", "BOUNTY-MCP-SAME-STATE", "BOUNTY-COMBINE-RACE", "BOUNTY-NO-SECRETS",
	"BOUNTY-METRICS-COUNTS", "BOUNTY-PROFILE-CONTACT",
	// Variants: a second way to break a rule, named RULE#variant, each
	// with its own tamper test (see RuleOf).
	"BOUNTY-PUZZLE-MODULAR#canonical", "BOUNTY-RECONSTRUCT#burn", "BOUNTY-NEXT-MOVE#claim",
	"BOUNTY-METRICS-COUNTS#repeat", "BOUNTY-NEXT-MOVE#join", "BOUNTY-NEXT-MOVE#contested",
	"BOUNTY-PEERS-REFRESH#last-seen", "BOUNTY-CONTACT#limit", "BOUNTY-PROFILE-NAME#limit",
	"BOUNTY-PROXIMITY#distinct", "BOUNTY-ROUNDS-COMPLETED", "BOUNTY-ROUNDS-COMPLETED#current",
	"BOUNTY-TRACK-RECORD#last-won", "BOUNTY-TRACK-RECORD#solved", "BOUNTY-TRACK-RECORD#registered",
	"BOUNTY-TRACK-RECORD#available", "BOUNTY-METRICS#solution", "BOUNTY-NO-SECRETS#solve",
	"BOUNTY-NO-SECRETS#refusal",
}

// WindowBreakable are faults in a documented window, one second or two
// off its limit: a live run sees them only after waiting the window out
// (@long), so their tamper tests run on the embedded reference's clock.
var WindowBreakable = []string{
	"BOUNTY-PEERS-TTL#early", "BOUNTY-PEERS-TTL#late", "BOUNTY-NEXT-MOVE#broker-grace", "BOUNTY-NEXT-MOVE#solve-grace",
}

// RuleOf names the rule a Breakable entry breaks: the entry itself, or
// what stands before the # of a variant.
func RuleOf(entry string) string {
	rule, _, _ := strings.Cut(entry, "#")
	return rule
}

// breakRound spoils a new round's shares or puzzles for the tamper tests
// of BOUNTY-SHAMIR, BOUNTY-ROTATION and BOUNTY-IDENTITY-PERSIST.
func (e *Engine) breakRound(r *Round) {
	if e.broken("BOUNTY-SHAMIR") {
		other, _ := Split(draw(e.rnd, KeyLen), K, []byte{1, 2, 3, 4, 5}, e.rnd)
		r.Shares[0] = other[0]
	}
	if e.broken("BOUNTY-ROTATION") && len(e.rounds) > 0 {
		r.Puzzles = e.rounds[len(e.rounds)-1].Puzzles
		r.Key, r.Shares = e.rounds[len(e.rounds)-1].Key, e.rounds[len(e.rounds)-1].Shares
	}
	if e.broken("BOUNTY-IDENTITY-PERSIST") {
		e.agents = map[string]*Agent{}
	}
}

// verify is Verify, or a deliberately wrong reading of one puzzle type.
func (e *Engine) verify(p Puzzle, sol Solution) error {
	switch {
	case p.Type == TypeHash && e.broken("BOUNTY-PUZZLE-HASH"):
		sum := sha256.Sum256([]byte(p.Params.PrefixHex + sol.NonceHex)) // over the text, not the bytes
		if !pow.HasLeadingZeroBits(sum[:], p.Params.DifficultyBits) {
			return ErrWrongSolution
		}
		return nil
	case p.Type == TypeModular && e.broken("BOUNTY-PUZZLE-MODULAR"):
		if _, ok := ParseInteger(sol.X); !ok {
			return ErrBadSolution
		}
		return nil
	case p.Type == TypeModular && e.broken("BOUNTY-PUZZLE-MODULAR#canonical"):
		// only the canonical residue: x + k*p, just as valid, refused
		x, ok := ParseInteger(sol.X)
		if mod, _ := new(big.Int).SetString(p.Params.P, 10); ok && mod != nil && x.Cmp(mod) >= 0 {
			return ErrWrongSolution
		}
		return Verify(p, sol)
	case p.Type == TypeDecode && e.broken("BOUNTY-PUZZLE-DECODE"):
		if sol.PlaintextHex != hex.EncodeToString(xorDigest(hex.EncodeToString([]byte(p.Params.SeedHex)), DecodeCipher(p.Params))) {
			return ErrWrongSolution
		}
		return nil
	}
	return Verify(p, sol)
}

// breakProximity spoils the served coalition_proximity for the tamper
// tests of BOUNTY-PROXIMITY, BOUNTY-BROKER and BOUNTY-ELECTION.
func (e *Engine) breakProximity(p Proximity, b Board) Proximity {
	if e.broken("BOUNTY-PROXIMITY") && !p.CombinableNow {
		p.AgentsShort = max(0, b.K-p.DistinctShares) // counts shares, not the matching
	}
	if e.broken("BOUNTY-PROXIMITY#distinct") {
		// k distinct shares among k distinct holders, not the matching
		holders := 0
		for _, en := range b.Entries {
			if len(en.SharesHeld) > 0 {
				holders++
			}
		}
		p.CombinableNow = p.DistinctShares >= b.K && holders >= b.K
	}
	if e.broken("BOUNTY-BROKER") && len(p.Roster) > 0 {
		p.Broker = p.Roster[len(p.Roster)-1].AgentID
	}
	if e.broken("BOUNTY-ELECTION") && p.Election.Needed > 0 && len(b.Entries) > 1 {
		p.Election.RankOrigin = (p.Election.RankOrigin + 1) % len(b.Entries)
	}
	return p
}

// Broken reports whether the engine was told to violate rule, for the
// surfaces in front of it (the MCP server's tamper switches).
func (e *Engine) Broken(rule string) bool {
	defer e.lock()()
	return e.broken(rule)
}

// burnCredits is the BOUNTY-RECONSTRUCT#burn fault: a refused
// reconstruction revokes the submitters' credits, so the coalition's
// corrected combine is refused too.
func (e *Engine) burnCredits(r *Round, subs []Submission) {
	if !e.broken("BOUNTY-RECONSTRUCT#burn") {
		return
	}
	for _, s := range subs {
		delete(r.Solvers[s.ShareIndex], s.AgentID)
	}
}

// raceWins is the BOUNTY-COMBINE-RACE fault: a combine that reaches the
// round its twin just won is checked against the closed round and paid
// again, as a check-then-act race would.
func (e *Engine) raceWins(cid string, subs []Submission) (map[string]any, bool) {
	r, ok := e.byID[cid]
	if !ok || r.Open || !e.broken("BOUNTY-COMBINE-RACE") {
		return nil, false
	}
	shares, agents, err := e.checkCombine(r, subs)
	if got, cerr := Combine(shares); err != nil || cerr != nil || hex.EncodeToString(got) != hex.EncodeToString(r.Key) {
		return nil, false
	}
	payouts := e.win(r, agents)
	return map[string]any{"ok": true, "won": true, "round": r.Number, "challenge_id": r.ChallengeID, "payouts": payouts,
		"currency": Currency, "real_money": false, "next_challenge_id": e.live().ChallengeID}, true
}

// leakShares is the BOUNTY-NO-SECRETS fault (and its #solve variant, on
// a solve's answer): an answer carries the round's solved shares, as a
// debugging field left in would.
func (e *Engine) leakShares(fault string, r *Round, out map[string]any) {
	if !e.broken(fault) {
		return
	}
	solved := map[string]string{}
	for i, by := range r.Solvers {
		if len(by) > 0 {
			solved[strconv.Itoa(i)] = hex.EncodeToString(r.Shares[i-1])
		}
	}
	out["solved_shares"] = solved
}

// ttlShift is the BOUNTY-PEERS-TTL#early and #late faults: a listing
// expires 2 s before its 1800 s, or is pruned 2 s after them.
func (e *Engine) ttlShift() (served, pruned float64) {
	switch {
	case e.broken("BOUNTY-PEERS-TTL#early"):
		return -2, 0
	case e.broken("BOUNTY-PEERS-TTL#late"):
		return 0, -2
	}
	return 0, 0
}

// graceLag is the BOUNTY-NEXT-MOVE#broker-grace and #solve-grace faults:
// next_move reads the broker's or the solve grace one second late.
func (e *Engine) graceLag(b Board) Board {
	if e.broken("BOUNTY-NEXT-MOVE#broker-grace") && b.CombinableForS > 0 {
		b.CombinableForS = max(b.CombinableForS-1, 0.001)
	}
	if e.broken("BOUNTY-NEXT-MOVE#solve-grace") {
		b.StalledForS = max(b.StalledForS-1, 0)
	}
	return b
}

// policyFaults is the BOUNTY-NEXT-MOVE#contested fault on the board
// next_move reads (a contested claim kept by the highest claimant, not the
// lowest) and the #join fault on its answer (an unlisted arrival told to
// list without join).
func (e *Engine) policyFaults(b Board) Board {
	if !e.broken("BOUNTY-NEXT-MOVE#contested") {
		return b
	}
	first := map[int]int{}
	out := b
	out.Entries = append([]Entry(nil), b.Entries...)
	for i, en := range out.Entries {
		if en.WorkingOn == 0 {
			continue
		}
		if j, seen := first[en.WorkingOn]; seen {
			out.Entries[j].WorkingOn = 0 // the lowest yields
			first[en.WorkingOn] = i
			continue
		}
		first[en.WorkingOn] = i
	}
	return out
}

func (e *Engine) moveFaults(m Move) Move {
	if e.broken("BOUNTY-NEXT-MOVE#join") && m.Join {
		m.Join = false
	}
	return m
}

// lastSeen is a listing's last POST, which last_seen shows ("a fresh
// last_seen proves the peer is still HERE"), or under the
// BOUNTY-PEERS-REFRESH#last-seen fault the first one: a refresh that
// leaves last_seen behind.
func (e *Engine) lastSeen(l *Listing) time.Time {
	if e.broken("BOUNTY-PEERS-REFRESH#last-seen") {
		return l.FirstPost
	}
	return l.LastPost
}

// contactFits is the peers board's and the profile's 256-character limit
// (BOUNTY-CONTACT, BOUNTY-PROFILE-CONTACT), or a broken one: #limit
// refuses the limit itself, BOUNTY-PROFILE-CONTACT none at all.
func (e *Engine) contactFits(contact string, profile bool) bool {
	switch {
	case profile && e.broken("BOUNTY-PROFILE-CONTACT"):
		return true
	case !profile && e.broken("BOUNTY-CONTACT#limit"):
		return utf8.RuneCountInString(contact) < MaxContact
	}
	return utf8.RuneCountInString(contact) <= MaxContact // "Max 256 chars.": characters, not bytes
}

// nameFits is the profile name's 2-32 characters (BOUNTY-PROFILE-NAME),
// or #limit's 2-31.
func (e *Engine) nameFits(n int) bool {
	if e.broken("BOUNTY-PROFILE-NAME#limit") {
		return n >= 2 && n < 32
	}
	return n >= 2 && n <= 32
}
