package bounty

import (
	"hash/fnv"
	"strconv"
)

// Moves of the next_move policy (BOUNTY-NEXT-MOVE).
const (
	MoveDone    = "done"
	MoveCombine = "combine"
	MoveDefer   = "defer"
	MoveList    = "list"
	MoveSolve   = "solve"
	MoveWait    = "wait"
)

// Claim is the intent a solve move asks the agent to declare first.
type Claim struct {
	WorkingOn int `json:"working_on"`
}

// Move is the one advisory move next_move answers. The runner compares
// Move, ShareIndex, Roster, Broker and the three list flags.
type Move struct {
	Move       string `json:"move"`
	ShareIndex int    `json:"share_index,omitempty"`
	Claim      *Claim `json:"claim,omitempty"`
	Roster     []Pair `json:"roster,omitempty"`
	Broker     string `json:"broker,omitempty"`
	FirstMover bool   `json:"first_mover,omitempty"`
	Join       bool   `json:"join,omitempty"`
	Refresh    bool   `json:"refresh,omitempty"`
	Reason     string `json:"reason"`
	// Options are the shares a solve move may name under the contract:
	// the whole tied group when the pick is the kit's spread, else the
	// one share the policy fixes. Not served.
	Options []int `json:"-"`
}

// Caller is who asks: its id, its engine-verified holdings in this round
// (they count even when it is not listed) and whether the asked challenge
// is closed.
type Caller struct {
	AgentID string
	Held    []int
	Closed  bool
}

// NextMove is the whole policy as a pure function of the board
// (BOUNTY-NEXT-MOVE): the engine serves it, the runner recomputes it.
func NextMove(b Board, c Caller) Move {
	return NextMoveWithRoster(b, c, nil)
}

// NextMoveWithRoster runs the policy with a given roster in place of the
// kit's own choice (BOUNTY-ROSTER), so a runner can follow a deployment's
// roster where the contract leaves the matching open.
func NextMoveWithRoster(b Board, c Caller, roster []Pair) Move {
	if c.Closed {
		return Move{Move: MoveDone, Reason: "this challenge is closed; read the live one"}
	}
	p := ComputeProximity(b)
	if roster != nil && p.CombinableNow {
		p.Roster, p.Broker = roster, lowestOf(roster)
	}
	own, listed := findEntry(b.Entries, c.AgentID)
	held := c.Held
	if listed {
		held = own.SharesHeld
	}
	if p.CombinableNow {
		return combinableMove(p, c.AgentID, listed, own, held)
	}
	if listed && own.ExpiresInS <= RefreshWindow {
		return Move{Move: MoveList, Refresh: true, Reason: "your listing is in its last quarter: refresh it"}
	}
	if !listed && len(held) > 0 {
		return listHolder(b, p, held)
	}
	return solveOrWait(b, p, c.AgentID, listed, own, held)
}

// combinableMove: the roster's broker combines, the others defer until the
// broker's grace lapses (BOUNTY-BROKER); outsiders list or wait.
func combinableMove(p Proximity, agent string, listed bool, own Entry, held []int) Move {
	for _, m := range p.Roster {
		if m.AgentID != agent {
			continue
		}
		if agent == p.Broker || p.CombinableForS >= BrokerGraceSeconds {
			return Move{Move: MoveCombine, Roster: p.Roster, Broker: p.Broker, Reason: "a coalition exists and you may submit it"}
		}
		return Move{Move: MoveDefer, Broker: p.Broker, Reason: "another member brokers this coalition"}
	}
	if !listed {
		return Move{Move: MoveList, Join: len(held) == 0, Reason: "the board is combinable: list to be carried into the next round"}
	}
	if own.ExpiresInS <= RefreshWindow {
		return Move{Move: MoveList, Refresh: true, Reason: "your listing is in its last quarter: refresh it"}
	}
	return Move{Move: MoveWait, Reason: "a coalition without you is combinable"}
}

// listHolder: an unlisted holder lists; first_mover when no listed agent
// holds a share yet.
func listHolder(b Board, p Proximity, held []int) Move {
	return Move{Move: MoveList, FirstMover: p.DistinctShares == 0, Reason: "you hold a share: list it so a coalition can find you"}
}

// solveOrWait is the solve branch: listed share-less agents follow the
// solver election, everyone else the ranked candidates.
func solveOrWait(b Board, p Proximity, agent string, listed bool, own Entry, held []int) Move {
	ranked := Candidates(b, agent, held)
	if len(ranked) == 0 {
		return Move{Move: MoveWait, Reason: "nothing you could solve raises the board's coalition"}
	}
	lapsed := b.StalledForS >= SolveGraceSeconds
	el := p.Election
	if listed && len(held) == 0 {
		if indexOf(el.Claimants, agent) >= 0 {
			return solve(own.WorkingOn, "you are an elected claimant")
		}
		claims := claimsBy(b.Entries, agent)
		if r := indexOf(el.Fill, agent); r >= 0 {
			m := solve(ranked[r%len(ranked)], "you are elected by rank")
			m.Options = sameClass(ranked, claims, r%len(ranked))
			return m
		}
		if lapsed {
			m := solve(ranked[0], "the election lapsed: every waiter solves")
			m.Options = sameClass(ranked, claims, 0)
			return m
		}
		return Move{Move: MoveWait, Reason: "enough other listings are elected to solve"}
	}
	if !listed && len(held) == 0 && !lapsed && len(el.Elected) >= el.Needed {
		return Move{Move: MoveList, Join: true, Reason: "every slot is taken: list to be elected next round"}
	}
	if listed && own.WorkingOn != 0 && keepsClaim(b.Entries, agent, own.WorkingOn) && containsInt(ranked, own.WorkingOn) {
		return solve(own.WorkingOn, "you keep your claim")
	}
	claims := claimsBy(b.Entries, agent)
	m := solve(spread(ranked, claims, agent), "this share raises the board's coalition")
	m.Options = sameClass(ranked, claims, 0)
	return m
}

func solve(s int, why string) Move {
	return Move{Move: MoveSolve, ShareIndex: s, Claim: &Claim{WorkingOn: s}, Reason: why, Options: []int{s}}
}

func lowestOf(roster []Pair) string {
	low := ""
	for _, m := range roster {
		if low == "" || m.AgentID < low {
			low = m.AgentID
		}
	}
	return low
}

// spread picks among the equally ranked best candidates by a hash of the
// agent_id, so simultaneous arrivals divide (BOUNTY-NEXT-SPREAD).
func spread(ranked []int, claims map[int]int, agent string) int {
	tied := tiedBest(ranked, claims)
	h := fnv.New32a()
	_, _ = h.Write([]byte(agent))
	return ranked[int(h.Sum32()%uint32(tied))]
}

// keepsClaim: a contested claim is kept by its lowest agent_id.
func keepsClaim(entries []Entry, agent string, s int) bool {
	for _, e := range entries {
		if e.WorkingOn == s && e.AgentID < agent {
			return false
		}
	}
	return true
}

func findEntry(entries []Entry, agent string) (Entry, bool) {
	for _, e := range entries {
		if e.AgentID == agent {
			return e, true
		}
	}
	return Entry{}, false
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

// tiedBest counts the candidates ranked equal to the first: as few claims
// and as cheap.
func tiedBest(ranked []int, claims map[int]int) int {
	tied := 1
	for tied < len(ranked) && Cost(ranked[tied]) == Cost(ranked[0]) && claims[ranked[tied]] == claims[ranked[0]] {
		tied++
	}
	return tied
}

// sameClass lists the candidates ranked equal to ranked[i]: the contract
// orders by claims and cost only, so any of them is a faithful pick.
func sameClass(ranked []int, claims map[int]int, i int) []int {
	var out []int
	for _, s := range ranked {
		if claims[s] == claims[ranked[i]] && Cost(s) == Cost(ranked[i]) {
			out = append(out, s)
		}
	}
	return out
}
