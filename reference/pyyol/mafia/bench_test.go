package mafia_test

import (
	"strconv"
	"testing"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// BenchmarkMatchesInProcess plays whole baseline matches on the engine.
func BenchmarkMatchesInProcess(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		m := mafia.New([]byte(strconv.Itoa(i)))
		for !m.Done() {
			s := m.Waiting()[0]
			if err := m.Act(s, mafia.Baseline(m.View(s))); err != nil {
				b.Fatal(err)
			}
		}
	}
}
