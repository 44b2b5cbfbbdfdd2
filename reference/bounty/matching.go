package bounty

import "sort"

// Entry is one live listing as the board shows it: the inputs of every
// board signal. Holdings are engine-verified (BOUNTY-HOLDINGS); WorkingOn
// is self-declared (BOUNTY-INTENT), 0 when the listing claims nothing.
type Entry struct {
	AgentID    string  `json:"agent_id"`
	SharesHeld []int   `json:"shares_held"`
	WorkingOn  int     `json:"-"`
	ExpiresInS float64 `json:"expires_in_s"`
}

// Pair assigns one roster member the share it contributes.
type Pair struct {
	AgentID    string `json:"agent_id"`
	ShareIndex int    `json:"share_index"`
}

// matcher computes maximum bipartite matchings between agents and the
// share indices they hold, trying agents in the order given and shares in
// index order so that every caller gets the same matching.
type matcher struct {
	holds   [][]int
	owner   map[int]int // share index -> agent position
	visited map[int]bool
}

// maxMatching returns the size of a maximum matching of holders to
// distinct shares and the matching itself as agent position -> share.
func maxMatching(holds [][]int) (int, map[int]int) {
	m := &matcher{holds: holds, owner: map[int]int{}}
	size := 0
	for a := range holds {
		m.visited = map[int]bool{}
		if m.augment(a) {
			size++
		}
	}
	bySlot := map[int]int{}
	for share, a := range m.owner {
		bySlot[a] = share
	}
	return size, bySlot
}

func (m *matcher) augment(a int) bool {
	for _, s := range m.holds[a] {
		if m.visited[s] {
			continue
		}
		m.visited[s] = true
		prev, taken := m.owner[s]
		if !taken || m.augment(prev) {
			m.owner[s] = a
			return true
		}
	}
	return false
}

// sortedEntries returns the entries in agent_id order, holdings sorted.
func sortedEntries(entries []Entry) []Entry {
	out := make([]Entry, len(entries))
	copy(out, entries)
	for i := range out {
		held := append([]int(nil), out[i].SharesHeld...)
		sort.Ints(held)
		out[i].SharesHeld = held
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AgentID < out[j].AgentID })
	return out
}

// matchingSize is the size of the board's maximum viable coalition
// (BOUNTY-PROXIMITY): the exact maximum matching, not a count of shares.
func matchingSize(entries []Entry) int {
	holds := make([][]int, 0, len(entries))
	for _, e := range entries {
		if len(e.SharesHeld) > 0 { // a share-less listing can match nothing
			holds = append(holds, e.SharesHeld)
		}
	}
	n, _ := maxMatching(holds)
	return n
}

// Roster picks the coalition of k holders: greedily in agent_id order, an
// agent joins when the chosen set stays fully matchable (BOUNTY-ROSTER).
// It returns nil when no k-coalition exists. entries must be sorted.
func Roster(entries []Entry, k int) []Pair {
	var chosen [][]int
	var ids []string
	for _, e := range entries {
		if len(chosen) == k {
			break
		}
		if len(e.SharesHeld) == 0 {
			continue
		}
		try := append(append([][]int(nil), chosen...), e.SharesHeld)
		if n, _ := maxMatching(try); n == len(try) {
			chosen, ids = try, append(ids, e.AgentID)
		}
	}
	if len(chosen) < k {
		return nil
	}
	_, pairing := maxMatching(chosen)
	out := make([]Pair, len(ids))
	for i, id := range ids {
		out[i] = Pair{AgentID: id, ShareIndex: pairing[i]}
	}
	return out
}
