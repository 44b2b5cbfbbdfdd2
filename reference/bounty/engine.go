package bounty

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand"
	"slices"
	"sync"
	"time"
)

// Contract constants.
const (
	K            = 3      // BOUNTY-THRESHOLD
	N            = 5      // BOUNTY-THRESHOLD
	BountyAmount = 1000   // BOUNTY-PAYOUT
	Currency     = "PLAY" // BOUNTY-PLAY-MONEY
	// RegBits is the registration proof's pow_bits (BOUNTY-REG-TOKEN).
	RegBits = 12
	// KeyLen is the master key's length in bytes (BOUNTY-SHARE-LAYOUT).
	KeyLen = 32
)

// Error is a refusal: the status the server answers with and the
// machine-readable code. The engine never imports net/http; the numbers
// are the server's to send.
type Error struct {
	Status int    `json:"-"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Reason }

func fail(status int, code, reason string) *Error {
	return &Error{Status: status, Code: code, Reason: reason}
}

// Agent is a registered identity and its engine-verified record.
type Agent struct {
	ID              string
	Secret          string
	Name, Contact   string
	NotifyURL       string
	RegisteredRound int
	RoundsWon       int
	LastWonRound    int
	AcceptedSolves  int
	PlayedRounds    map[int]bool
	Earned          int
	Strikes         int
	// House marks the operator's reference agents (HouseWin).
	House bool
}

// Round is one challenge: its key, puzzles, shares and who solved what.
type Round struct {
	Number      int
	ChallengeID string
	Key         []byte
	Puzzles     []Puzzle
	Shares      [][]byte
	Solvers     map[int]map[string]bool // share index -> agent -> solved
	Open        bool
	OpenedAt    time.Time
	ClosedAt    time.Time
	Winners     []string
	// CombinableSince is when the board last became combinable (zero when
	// it is not); LastProgress the last accepted solve or claim.
	CombinableSince time.Time
	LastProgress    time.Time
	stats           roundStats
}

// Listing is one peers-board entry.
type Listing struct {
	refreshed bool
	AgentID   string
	Contact   string
	Message   string
	WorkingOn int
	LastPost  time.Time
	// FirstPost is when the listing was made; only a tamper fault shows
	// it as last_seen (BOUNTY-PEERS-REFRESH#last-seen).
	FirstPost time.Time
}

// Payout is one ledger line (BOUNTY-LEDGER).
type Payout struct {
	Round       int    `json:"round"`
	ChallengeID string `json:"challenge_id"`
	AgentID     string `json:"agent_id"`
	Amount      int    `json:"amount"`
	Currency    string `json:"currency"`
}

// Engine is the whole platform state. One engine sits behind every surface.
type Engine struct {
	mu       sync.Mutex
	now      func() time.Time
	rnd      *rand.Rand
	agents   map[string]*Agent
	names    map[string]string // name -> agent_id
	tokens   map[string]bool   // reg_token -> spent
	rounds   []*Round
	byID     map[string]*Round
	listings map[string]*Listing
	ledger   []Payout
	pairsWon map[[2]string]bool
	faults   map[string]bool
	notices  []Notice // round_open notices not yet taken for delivery
	seasons  seasons
}

// Notice is one round_open notice the platform owes an agent whose
// notify_url is set (BOUNTY-ROUND-OPEN-NOTICE); the server delivers it.
type Notice struct {
	URL         string
	Round       int
	ChallengeID string
}

// TakeNotices hands over the notices owed since the last call, for the
// server to POST outside the engine's lock.
func (e *Engine) TakeNotices() []Notice {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.notices
	e.notices = nil
	return out
}

// New starts an engine at round 1 with a seeded random source.
func New(seed int64, now func() time.Time) *Engine {
	e := &Engine{now: now, rnd: rand.New(rand.NewSource(seed)), agents: map[string]*Agent{},
		names: map[string]string{}, tokens: map[string]bool{}, byID: map[string]*Round{},
		listings: map[string]*Listing{}, pairsWon: map[[2]string]bool{}}
	e.openRound()
	return e
}

func (e *Engine) hexID(n int) string { return hex.EncodeToString(draw(e.rnd, n)) }

// openRound opens the next round: new key, puzzles and shares, same k-of-n
// (BOUNTY-ROTATION). Listings carry over; claims do not (BOUNTY-CARRYOVER).
func (e *Engine) openRound() {
	r := &Round{Number: len(e.rounds) + 1, ChallengeID: "chal-" + e.hexID(6), Key: draw(e.rnd, KeyLen),
		Solvers: map[int]map[string]bool{}, Open: true, stats: roundStats{CombineRejected: map[string]int{}}, OpenedAt: e.now(), LastProgress: e.now()}
	xs := make([]byte, N)
	for i := range xs {
		xs[i] = byte(i + 1) // x = share_index (BOUNTY-SHARE-LAYOUT)
	}
	r.Shares, _ = Split(r.Key, K, xs, e.rnd)
	for _, rung := range Ladder {
		r.Puzzles = append(r.Puzzles, NewPuzzle(rung, e.rnd))
	}
	e.breakRound(r)
	e.rounds = append(e.rounds, r)
	e.byID[r.ChallengeID] = r
	if r.Number > 1 {
		e.oweNotices(r)
	}
	for _, l := range e.listings {
		if !e.broken("BOUNTY-CARRYOVER") {
			l.WorkingOn = 0
		}
	}
}

// oweNotices queues one round_open notice per agent with a notify_url for
// the round r just opened ("we POST one round_open notice per new round",
// BOUNTY-ROUND-OPEN-NOTICE), in agent order so a seeded run is repeatable.
func (e *Engine) oweNotices(r *Round) {
	ids := make([]string, 0, len(e.agents))
	for id, a := range e.agents {
		if a.NotifyURL != "" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		n := Notice{URL: e.agents[id].NotifyURL, Round: r.Number, ChallengeID: r.ChallengeID}
		e.notices = append(e.notices, n)
		if e.broken("BOUNTY-ROUND-OPEN-NOTICE") {
			e.notices = append(e.notices, n)
		}
	}
}

// live returns the open round.
func (e *Engine) live() *Round { return e.rounds[len(e.rounds)-1] }

// openRoundFor finds an open challenge: unknown answers 404, closed 410
// (BOUNTY-STALE-410 for the manifest, BOUNTY-REF-STALE-410 for the other
// round-bound endpoints).
func (e *Engine) openRoundFor(cid string) (*Round, *Error) {
	r, ok := e.byID[cid]
	if !ok {
		return nil, fail(404, "unknown_challenge", "no such challenge_id")
	}
	if !r.Open && !e.broken("BOUNTY-STALE-410") {
		return nil, fail(410, "round_closed", "this round closed; GET /challenges for the live challenge_id")
	}
	return r, nil
}

// anyRound finds an open or closed challenge: closed rounds stay readable
// (BOUNTY-CLOSED-READABLE).
func (e *Engine) anyRound(cid string) (*Round, *Error) {
	r, ok := e.byID[cid]
	if !ok {
		return nil, fail(404, "unknown_challenge", "no such challenge_id")
	}
	if !r.Open && e.broken("BOUNTY-CLOSED-READABLE") {
		return nil, fail(410, "round_closed", "closed")
	}
	return r, nil
}

// commitment is the key commitment combine proves a reconstruction by.
func commitment(key []byte) [32]byte { return sha256.Sum256(key) }

// Lock serialises a surface's whole request on the engine.
func (e *Engine) lock() func() {
	e.mu.Lock()
	return e.mu.Unlock
}
