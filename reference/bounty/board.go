package bounty

import "sort"

// Board constants of the contract.
const (
	TTLSeconds         = 1800.0 // BOUNTY-PEERS-TTL
	BrokerGraceSeconds = 30.0   // BOUNTY-BROKER
	SolveGraceSeconds  = 30.0   // BOUNTY-ELECTION
	RefreshWindow      = TTLSeconds / 4
)

// Board is everything the advisory signals are computed from: the live
// listings and the round, plus the two clocks the board reports. Both the
// engine and the runner build one and call the same pure functions.
type Board struct {
	Round          int
	K, N           int
	Entries        []Entry
	CombinableForS float64
	StalledForS    float64
}

// Election is coalition_proximity.solve_election (BOUNTY-ELECTION).
type Election struct {
	Needed      int      `json:"needed"`
	RankOrigin  int      `json:"rank_origin"`
	Claimants   []string `json:"claimants"`
	Fill        []string `json:"fill"`
	Elected     []string `json:"elected"`
	GraceS      float64  `json:"grace_s"`
	StalledForS float64  `json:"stalled_for_s"`
}

// Proximity is the board's coalition_proximity block (BOUNTY-PROXIMITY).
type Proximity struct {
	KRequired      int      `json:"k_required"`
	AgentsListed   int      `json:"agents_listed"`
	DistinctShares int      `json:"distinct_shares_listed"`
	SharesMissing  []int    `json:"shares_missing_from_board"`
	MaxCoalition   int      `json:"max_coalition"`
	CombinableNow  bool     `json:"combinable_now"`
	AgentsShort    int      `json:"agents_short"`
	Roster         []Pair   `json:"roster"`
	Broker         string   `json:"broker,omitempty"`
	CombinableForS float64  `json:"combinable_for_s"`
	BrokerGraceS   float64  `json:"broker_grace_s"`
	Election       Election `json:"solve_election"`
}

// ComputeProximity derives coalition_proximity from the live listings only
// (BOUNTY-PEERS-TTL, BOUNTY-PROXIMITY); the broker is the roster's lowest
// agent_id (BOUNTY-BROKER).
func ComputeProximity(b Board) Proximity {
	entries := sortedEntries(b.Entries)
	onBoard := map[int]bool{}
	for _, e := range entries {
		for _, s := range e.SharesHeld {
			onBoard[s] = true
		}
	}
	p := Proximity{KRequired: b.K, AgentsListed: len(entries), DistinctShares: len(onBoard),
		SharesMissing: []int{}, Roster: []Pair{}, BrokerGraceS: BrokerGraceSeconds}
	for s := 1; s <= b.N; s++ {
		if !onBoard[s] {
			p.SharesMissing = append(p.SharesMissing, s)
		}
	}
	p.MaxCoalition = matchingSize(entries)
	p.CombinableNow = p.MaxCoalition >= b.K
	if !p.CombinableNow {
		p.AgentsShort = b.K - p.MaxCoalition
	} else {
		p.Roster = Roster(entries, b.K)
		p.Broker = p.Roster[0].AgentID
		p.CombinableForS = b.CombinableForS
	}
	p.Election = elect(b, entries, p)
	return p
}

// raises reports whether holding share s as well would let agent (with the
// holdings held; listed or not) raise the board's maximum coalition.
func raises(entries []Entry, agent string, held []int, s int) bool {
	holds := make([][]int, 0, 8)
	for _, e := range entries {
		if e.AgentID != agent && len(e.SharesHeld) > 0 {
			holds = append(holds, e.SharesHeld)
		}
	}
	without, _ := maxMatching(append(holds, held))
	with, _ := maxMatching(append(holds, append(append([]int(nil), held...), s)))
	return with > without
}

// elect computes the solver election from the sorted live entries
// (BOUNTY-ELECTION): claimants on shares that raise the matching fill
// slots first, the rest go by rank from rank_origin over all listings.
func elect(b Board, entries []Entry, p Proximity) Election {
	el := Election{Needed: p.AgentsShort, Claimants: []string{}, Fill: []string{},
		Elected: []string{}, GraceS: SolveGraceSeconds, StalledForS: b.StalledForS}
	count := len(entries)
	if count == 0 {
		return el
	}
	el.RankOrigin = ((b.Round - 1) * b.K) % count
	skip := map[string]bool{}
	claimed := map[int]bool{}
	for _, e := range entries {
		if len(e.SharesHeld) > 0 {
			skip[e.AgentID] = true
			continue
		}
		s := e.WorkingOn
		if s == 0 || claimed[s] || len(el.Claimants) >= el.Needed || !raises(entries, e.AgentID, nil, s) {
			continue
		}
		claimed[s] = true
		skip[e.AgentID] = true
		el.Claimants = append(el.Claimants, e.AgentID)
	}
	for i := 0; i < count && len(el.Claimants)+len(el.Fill) < el.Needed; i++ {
		e := entries[(el.RankOrigin+i)%count]
		if !skip[e.AgentID] {
			el.Fill = append(el.Fill, e.AgentID)
		}
	}
	el.Elected = append(append(el.Elected, el.Claimants...), el.Fill...)
	return el
}

// claimsBy counts, per share, the live claims of listings other than agent.
func claimsBy(entries []Entry, agent string) map[int]int {
	out := map[int]int{}
	for _, e := range entries {
		if e.AgentID != agent && e.WorkingOn != 0 {
			out[e.WorkingOn]++
		}
	}
	return out
}

// Candidates are the shares agent could solve that would raise the board's
// maximum coalition, least-claimed first, then cheapest by the ladder, then
// by index (BOUNTY-NEXT-MOVE, BOUNTY-NEXT-SPREAD).
func Candidates(b Board, agent string, held []int) []int {
	entries := sortedEntries(b.Entries)
	has := map[int]bool{}
	for _, s := range held {
		has[s] = true
	}
	var out []int
	for s := 1; s <= b.N; s++ {
		if !has[s] && raises(entries, agent, held, s) {
			out = append(out, s)
		}
	}
	claims := claimsBy(entries, agent)
	sort.SliceStable(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if claims[a] != claims[c] {
			return claims[a] < claims[c]
		}
		if Cost(a) != Cost(c) {
			return Cost(a) < Cost(c)
		}
		return a < c
	})
	return out
}
