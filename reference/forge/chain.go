package forge

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"github.com/agentgames/conformance/reference/forge/authoring"
)

// Level is one published position of the chain. Published levels never
// change (FORGE-PUBLISHED-IMMUTABLE); only the server-owned Enabled flag
// does, and no HTTP API sets it (FORGE-NO-DISABLE-API).
type Level struct {
	Position    int
	ID          string
	AuthorID    string // "" for the seed levels
	Enabled     bool
	Package     *authoring.Package
	Fingerprint string
	Published   time.Time
	// Challenges are the inputs every session of the level asks for: drawn
	// by the platform from the input domain, distinct from the examples and
	// from the package's hidden inputs, which stay server-side with the rest
	// of the private part (FORGE-PRIVATE-SERVER-ONLY, FORGE-REF-SCHEMA).
	Challenges [][]int64
}

// PublicView is the allow-listed view of a level a solver may see once
// unlocked (FORGE-SESSION-PUBLIC-VIEW): never the oracle, hidden inputs,
// validation material, author or difficulty: no tier is shown
// (FORGE-NO-DIFFICULTY-TIERS, FORGE-LEGACY-DIFFICULTY-HIDDEN).
type PublicView struct {
	Position    int                 `json:"position"`
	LevelID     string              `json:"levelId"`
	Title       string              `json:"title"`
	Rules       string              `json:"rules"`
	InputDomain authoring.Domain    `json:"inputDomain"`
	Examples    []authoring.Example `json:"examples"`
}

func (l *Level) view() *PublicView {
	p := l.Package.Public
	return &PublicView{Position: l.Position, LevelID: l.ID, Title: p.Title, Rules: p.Rules, InputDomain: p.InputDomain, Examples: p.Examples}
}

// appendLevel puts a validated package at the tail: the server assigns the
// position (FORGE-POSITION-TAIL, FORGE-SERVER-POSITION) and the author comes
// from the caller's key (FORGE-AUTHOR-BOUND). The chain only grows
// (FORGE-CHAIN-LINEAR), from position 1 (FORGE-CHAIN-FIRST-POSITION).
func (e *Engine) appendLevel(p *authoring.Package, n *authoring.Normalized, author string) *Level {
	l := &Level{Position: len(e.chain) + 1, ID: p.ID, AuthorID: author, Enabled: true, Package: p,
		Fingerprint: n.Fingerprint, Published: e.now().UTC(), Challenges: challenges(p, n.Fingerprint)}
	e.chain = append(e.chain, l)
	return l
}

// Summary is GET /api/chain: counts only, never level content
// (FORGE-CHAIN-SUMMARY, FORGE-FUTURE-LOCKED).
type Summary struct {
	Topology      string `json:"topology"`
	FirstPosition int    `json:"firstPosition"`
	Length        int    `json:"length"`
	SeedPositions struct {
		First int `json:"first"`
		Last  int `json:"last"`
	} `json:"seedPositions"`
}

// Chain returns the chain summary.
func (e *Engine) Chain() Summary {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := Summary{Topology: "global-linear-append-only", FirstPosition: 1, Length: len(e.chain)}
	s.SeedPositions.First, s.SeedPositions.Last = 1, SeedLast
	return s
}

// SetEnabled flips the server-owned enabled field of a position. It is
// reachable from Go only: no public or administrator HTTP API
// (FORGE-NO-DISABLE-API, FORGE-DISABLED-SKIP).
func (e *Engine) SetEnabled(position int, enabled bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if position < 1 || position > len(e.chain) {
		return false
	}
	e.chain[position-1].Enabled = enabled
	return true
}

// challengeCount is how many challenge inputs a session asks for.
const challengeCount = 3

// challenges draws a level's challenge inputs from its input domain, seeded
// by the content fingerprint (the same level always asks the same), skipping
// every example and hidden input so that no private input reaches a solver
// (FORGE-PRIVATE-SERVER-ONLY, FORGE-REF-SCHEMA). A domain too small to
// leave challengeCount fresh inputs gets the ones it has.
func challenges(p *authoring.Package, fingerprint string) [][]int64 {
	taken := slices.Clone(p.Private.HiddenInputs)
	for _, ex := range p.Public.Examples {
		taken = append(taken, ex.Input)
	}
	var out [][]int64
	for _, in := range authoring.Generate(p.Public.InputDomain, challengeSeed(fingerprint), 256) {
		if len(out) == challengeCount {
			break
		}
		if !slices.ContainsFunc(taken, func(t []int64) bool { return slices.Equal(t, in) }) {
			out = append(out, in)
			taken = append(taken, in)
		}
	}
	return out
}

// challengeSeed derives the challenge generator's seed from the
// fingerprint, apart from the validation inputs' seed.
func challengeSeed(fingerprint string) string {
	sum := sha256.Sum256([]byte("forge-challenges\x00" + fingerprint))
	return hex.EncodeToString(sum[:])
}
