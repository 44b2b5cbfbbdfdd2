package solver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// memoLimit bounds the searches a Memo keeps; past it, new ones are
// searched and not kept.
const memoLimit = 4096

// Memo remembers Search's answers by the observations searched, so a
// process that solves the same levels again searches each once: the kit's
// tests play the same seeded chains in many runs, and the search was a
// tenth of their CPU time. Search is a pure function of the observations,
// so a remembered answer is the answer. The zero Memo is ready to use and
// safe for concurrent use. Benchmarks of the solver call Solve, which
// searches every time.
type Memo struct {
	mu    sync.Mutex
	found map[string]searched
}

// searched is one remembered search: the programs found and how many were
// tried.
type searched struct {
	programs []dsl.Program
	tried    int
}

// Solve is Solve, answering the program search from the memo when it can.
func (m *Memo) Solve(l Level, ask Query, rng *rand.Rand) ([]dsl.Value, Stats, error) {
	return solve(l, ask, rng, m.Search)
}

// Search is Search, remembered. The caller may change the returned slice.
func (m *Memo) Search(obs []Observation) ([]dsl.Program, int) {
	key := fmt.Sprintf("%#v", obs)
	m.mu.Lock()
	s, ok := m.found[key]
	m.mu.Unlock()
	if !ok {
		s.programs, s.tried = Search(obs)
		m.mu.Lock()
		if m.found == nil {
			m.found = map[string]searched{}
		}
		if len(m.found) < memoLimit {
			m.found[key] = s
		}
		m.mu.Unlock()
	}
	return slices.Clone(s.programs), s.tried
}
