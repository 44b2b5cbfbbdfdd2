package pow

import (
	"crypto/sha256"
	"runtime"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair"
)

// benchPrefix is a challenge of the length the servers hand out: prefix
// and nonce fit one 64-byte SHA-256 block, as in a real proof.
const benchPrefix = "c6f1d2a09b7e4c3f8a5d6e7f"

// sink keeps the ceiling loop's digest alive.
var sink byte

// ceiling hashes n 64-byte blocks of one fixed buffer through a single
// streaming crypto/sha256: one block compression per Write and nothing
// else, the fastest Go's SHA-256 goes on 64-byte inputs.
func ceiling(n int) {
	h := sha256.New()
	var buf [64]byte
	for range n {
		h.Write(buf[:])
	}
	sink ^= h.Sum(nil)[0]
}

// bulkCeiling hashes n blocks written 16 KiB at a time: the bulk rate
// (openssl speed's 16 KiB figure) with the per-call cost spread out.
func bulkCeiling(n int) {
	h := sha256.New()
	buf := make([]byte, 16<<10)
	for left := n; left > 0; left -= len(buf) / 64 {
		h.Write(buf[:min(left*64, len(buf))])
	}
	sink ^= h.Sum(nil)[0]
}

// solver tries n nonces of an impossible target (every try a full miss)
// on workers goroutines, continuing where its last call stopped. The
// count is rounded up to a multiple of align, for the cores comparison:
// the search hands out whole chunks, so a round of k chunks and a half
// leaves one of two workers hashing alone at its end (a round of 24
// chunks could read 1.96x at best, a short -benchtime far less); rounded
// to whole pairs of chunks on both sides alike, two workers can finish
// together and both sides do the same work.
func solver(workers int, align uint64) benchpair.Side {
	var from uint64
	return func(n int) {
		count := (uint64(n) + align - 1) / align * align
		if _, ok := ScanDecimal(benchPrefix, 256, from, count, workers); ok {
			panic("an impossible proof was found")
		}
		from += count
	}
}

// withProcs runs side with GOMAXPROCS set to procs, so one process can
// compare one core with two.
func withProcs(procs int, side benchpair.Side) benchpair.Side {
	return func(n int) {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		side(n)
	}
}

// BenchmarkProofOfWork reports, interleaved A B A B: the single-worker
// solver against the 64-byte block ceiling ("pow/ceiling" is the solver's
// speed as a fraction of the ceiling; goal >= 0.5), the same against the
// 16 KiB bulk rate (for reference), and two cores against one
// ("2core/1core", goal >= 1.8; only meaningful on an otherwise idle
// machine). A unit is one hash, or one block for a ceiling.
func BenchmarkProofOfWork(b *testing.B) {
	b.Run("ceiling", func(b *testing.B) {
		benchpair.Report(b, "pow/ceiling", ceiling, solver(1, 1))
	})
	b.Run("bulk", func(b *testing.B) {
		benchpair.Report(b, "pow/bulk", bulkCeiling, solver(1, 1))
	})
	b.Run("cores", func(b *testing.B) {
		if runtime.NumCPU() < 2 {
			b.Skip("one CPU: two cores cannot be compared with one")
		}
		benchpair.Report(b, "2core/1core", withProcs(1, solver(1, 2*chunk)), withProcs(2, solver(2, 2*chunk)))
	})
}
