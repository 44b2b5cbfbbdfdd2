package forge

import (
	"sort"
	"time"
)

// Solve is one cleared level, kept for the activity arrays.
type Solve struct {
	Position int
	AgentID  string
	At       time.Time
}

func (e *Engine) recordSolve(a *Agent, position int) {
	e.solves = append(e.solves, Solve{Position: position, AgentID: a.ID, At: e.now().UTC()})
}

// SolverRow ranks one solver by continuous chain progress
// (FORGE-RANK-PROGRESS); queries play no part (FORGE-RANK-QUERY-EFFICIENCY).
type SolverRow struct {
	Rank          int    `json:"rank"`
	Name          string `json:"name"`
	ChainProgress int    `json:"chainProgress"`
	ClearedLevels int    `json:"clearedLevels"`
	SkippedLevels int    `json:"skippedLevels"`
}

// AuthorRow ranks one author by accepted levels on the chain, each counted
// once (FORGE-AUTHOR-RANK).
type AuthorRow struct {
	Rank           int    `json:"rank"`
	Name           string `json:"name"`
	AcceptedLevels int    `json:"acceptedLevels"`
}

// LevelActivity describes one stage by its position only
// (FORGE-ACTIVITY-POSITION-ONLY, FORGE-ACTIVITY-FORBIDDEN-FIELDS).
type LevelActivity struct {
	Position int `json:"position"`
	Solves   int `json:"solves"`
}

// SolveActivity is one solve by position, solver nickname and time only.
type SolveActivity struct {
	Position int       `json:"position"`
	Name     string    `json:"name"`
	At       time.Time `json:"at"`
}

// Leaderboards is GET /api/leaderboards (FORGE-LEADERBOARDS,
// FORGE-REF-LEADERBOARD-SHAPE).
type Leaderboards struct {
	Scope        string          `json:"scope"`
	Solvers      []SolverRow     `json:"solvers"`
	Authors      []AuthorRow     `json:"authors"`
	Levels       []LevelActivity `json:"levels"`
	FirstSolves  []SolveActivity `json:"firstSolves"`
	RecentSolves []SolveActivity `json:"recentSolves"`
}

// Leaderboards computes the public rankings and activity.
func (e *Engine) Leaderboards() Leaderboards {
	e.mu.Lock()
	defer e.mu.Unlock()
	lb := Leaderboards{Scope: "practice-unverified", Solvers: []SolverRow{}, Authors: []AuthorRow{},
		Levels: []LevelActivity{}, FirstSolves: []SolveActivity{}, RecentSolves: []SolveActivity{}}
	accepted := map[string]int{}
	for _, l := range e.chain {
		lb.Levels = append(lb.Levels, LevelActivity{Position: l.Position})
		if l.AuthorID != "" {
			accepted[l.AuthorID]++
		}
	}
	for _, a := range e.sortedAgents() {
		e.skip(a)
		lb.Solvers = append(lb.Solvers, SolverRow{Name: a.Name, ChainProgress: a.Position - 1, ClearedLevels: a.Cleared, SkippedLevels: a.Skipped})
		if accepted[a.ID] > 0 {
			lb.Authors = append(lb.Authors, AuthorRow{Name: a.Name, AcceptedLevels: accepted[a.ID]})
		}
	}
	sort.SliceStable(lb.Solvers, func(i, j int) bool { return lb.Solvers[i].ChainProgress > lb.Solvers[j].ChainProgress })
	sort.SliceStable(lb.Authors, func(i, j int) bool { return lb.Authors[i].AcceptedLevels > lb.Authors[j].AcceptedLevels })
	// FORGE-RANK-TIES: equal metrics share a rank; numbered 1, 1, 3
	// (FORGE-REF-RANK-NUMBERING: the contract leaves the numbering open).
	for i := range lb.Solvers {
		lb.Solvers[i].Rank = i + 1
		if i > 0 && lb.Solvers[i].ChainProgress == lb.Solvers[i-1].ChainProgress {
			lb.Solvers[i].Rank = lb.Solvers[i-1].Rank
		}
	}
	for i := range lb.Authors {
		lb.Authors[i].Rank = i + 1
		if i > 0 && lb.Authors[i].AcceptedLevels == lb.Authors[i-1].AcceptedLevels {
			lb.Authors[i].Rank = lb.Authors[i-1].Rank
		}
	}
	e.activity(&lb)
	return lb
}

func (e *Engine) activity(lb *Leaderboards) {
	first := map[int]bool{}
	for _, s := range e.solves {
		lb.Levels[s.Position-1].Solves++
		act := SolveActivity{Position: s.Position, Name: e.agents[s.AgentID].Name, At: s.At}
		if !first[s.Position] {
			first[s.Position] = true
			lb.FirstSolves = append(lb.FirstSolves, act)
		}
	}
	for i := len(e.solves) - 1; i >= 0 && len(lb.RecentSolves) < 20; i-- {
		s := e.solves[i]
		lb.RecentSolves = append(lb.RecentSolves, SolveActivity{Position: s.Position, Name: e.agents[s.AgentID].Name, At: s.At})
	}
}

// sortedAgents lists agents by creation, then ID, for stable tie order.
func (e *Engine) sortedAgents() []*Agent {
	out := make([]*Agent, 0, len(e.agents))
	for _, a := range e.agents {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}
