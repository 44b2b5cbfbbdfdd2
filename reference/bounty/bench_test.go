package bounty

import (
	"crypto/sha256"
	"fmt"
	"math/rand"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// rawHashes hashes the same token+decimal bytes n times in a tight loop:
// the ceiling a proof-of-work loop can reach.
func rawHashes(token string, n int) {
	b := []byte(token + "1234567")
	for i := 0; i < n; i++ {
		sum := sha256.Sum256(b)
		b[len(b)-1] = sum[0]
	}
}

// BenchmarkRegistrationPoW measures the proof search (impossible bits, so
// every try is a full miss) against raw crypto/sha256 over the same bytes,
// on one core and on all cores, and reports the ratio.
func BenchmarkRegistrationPoW(b *testing.B) {
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("cores=%d", workers), func(b *testing.B) {
			per := b.N/workers + 1
			pow := timeParallel(workers, func(w int) { ScanRegistration("reg-bench-token", 256, uint64(w*per), uint64(per)) })
			raw := timeParallel(workers, func(int) { rawHashes("reg-bench-token", per) })
			total := float64(per * workers)
			b.ReportMetric(total/pow.Seconds(), "pow-hashes/s")
			b.ReportMetric(total/raw.Seconds(), "raw-hashes/s")
			b.ReportMetric(raw.Seconds()/pow.Seconds(), "pow/raw")
		})
	}
}

func timeParallel(workers int, f func(w int)) time.Duration {
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			f(w)
		}(w)
	}
	wg.Wait()
	return time.Since(start)
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
