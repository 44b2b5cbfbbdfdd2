package bounty

import (
	"crypto/sha256"
	"math/rand"
	"strconv"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair"
)

// blockCeiling hashes n 64-byte blocks of a fixed buffer through one
// streaming crypto/sha256: a block compression per Write and nothing else.
func blockCeiling(n int) {
	h := sha256.New()
	var buf [64]byte
	for range n {
		h.Write(buf[:])
	}
	h.Sum(nil)
}

// BenchmarkRegistrationPoW measures the registration proof search on one
// core (an impossible target, so every try is a full miss) against the
// SHA-256 block ceiling, interleaved: "pow/ceiling" is the search's speed
// as a fraction of the ceiling (goal >= 0.5). The two-core scaling is
// reference/pow's BenchmarkProofOfWork.
func BenchmarkRegistrationPoW(b *testing.B) {
	var from uint64
	scan := func(n int) {
		if _, ok := ScanRegistration("reg-bench-token", 256, from, uint64(n)); ok {
			b.Fatal("an impossible proof was found")
		}
		from += uint64(n)
	}
	benchpair.Report(b, "pow/ceiling", blockCeiling, scan)
}

// BenchmarkShamirCombine combines 3 of 5 shares of a 32-byte key.
func BenchmarkShamirCombine(b *testing.B) {
	shares, _ := Split(make([]byte, KeyLen), K, []byte{1, 2, 3, 4, 5}, rand.New(rand.NewSource(1)))
	set := [][]byte{shares[0], shares[2], shares[4]}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Combine(set); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "combines/s")
}

// BenchmarkNextMove1000 computes next_move for a listed share-less agent on
// a board of 1000 live listings (a tenth of them holding a share).
func BenchmarkNextMove1000(b *testing.B) {
	board := Board{Round: 4, K: K, N: N, StalledForS: 5}
	for i := 0; i < 1000; i++ {
		e := Entry{AgentID: "agent-" + strconv.Itoa(100000+i), ExpiresInS: 1700}
		if i%10 == 0 {
			e.SharesHeld = []int{1 + i%2}
		}
		if i%17 == 0 {
			e.WorkingOn = 4
		}
		board.Entries = append(board.Entries, e)
	}
	caller := Caller{AgentID: "agent-100501"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NextMove(board, caller)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "next_moves/s")
}
