package pow

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// chunk is how many nonces a worker takes at a time: large enough that the
// one shared counter is touched once per ~1 ms of hashing, small enough
// that a found proof stops the other workers quickly.
const chunk = 1 << 14

// none marks "no proof found yet" in a search's best chunk.
const none = math.MaxUint64

// SearchDecimal finds the smallest n such that sha256(prefix || decimal(n))
// starts with at least bits zero bits, hashing on workers goroutines
// (GOMAXPROCS when workers < 1). The answer is the one a sequential search
// 0, 1, 2, ... finds, so transcripts stay reproducible whatever the core
// count. It stops with ctx's error when ctx ends first. Both Iyra's identity
// proof (difficulty d is 4d bits) and the bounty's registration use it.
func SearchDecimal(ctx context.Context, prefix string, bits, workers int) (uint64, error) {
	n, ok, err := searchRange(ctx, prefix, bits, 0, math.MaxUint64, workers)
	if err == nil && !ok {
		err = context.DeadlineExceeded // the whole uint64 space missed: unreachable in practice
	}
	return n, err
}

// ScanDecimal tries n = from .. from+count-1 on workers goroutines and
// returns the smallest that meets bits; ok is false when none does.
func ScanDecimal(prefix string, bits int, from, count uint64, workers int) (uint64, bool) {
	n, ok, _ := searchRange(context.Background(), prefix, bits, from, count, workers)
	return n, ok
}

// search is one run of SearchDecimal: the range, the shared chunk counter
// and the best chunk a proof was found in.
type search struct {
	prefix      string
	bits        int
	from, count uint64
	next, best  atomic.Uint64
}

// searchRange hands the range out in chunks to the workers. Every chunk
// below the best one found is scanned whole (chunks are drawn in order and
// a worker only stops on drawing a chunk past the best), so the minimum of
// the workers' finds is the smallest proof of the range.
func searchRange(ctx context.Context, prefix string, bits int, from, count uint64, workers int) (uint64, bool, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if count == 0 {
		return 0, false, ctx.Err()
	}
	s := &search{prefix: prefix, bits: bits, from: from, count: count}
	s.best.Store(none)
	found := make([]uint64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[w] = s.work(ctx)
		}()
	}
	wg.Wait()
	best := uint64(none)
	for _, n := range found {
		best = min(best, n)
	}
	if best != none {
		return best, true, nil
	}
	return 0, false, ctx.Err()
}

// work draws chunks until the range ends, ctx ends or a drawn chunk lies
// past the best proof found, and returns its own smallest find (none if it
// found nothing). Everything the hashing touches is the worker's own.
func (s *search) work(ctx context.Context) uint64 {
	h := newHasher(s.prefix)
	mine := uint64(none)
	for {
		c := s.next.Add(1) - 1
		if c > s.best.Load() || c > (s.count-1)/chunk || ctx.Err() != nil {
			return mine
		}
		start := s.from + c*chunk
		n := min(uint64(chunk), s.count-c*chunk)
		if k, ok := h.scan(start, n, s.bits, func() bool { return s.best.Load() < c }); ok {
			mine = min(mine, k)
			lowerBest(&s.best, c)
			return mine
		}
	}
}

// lowerBest sets best to c unless it already holds a smaller chunk.
func lowerBest(best *atomic.Uint64, c uint64) {
	for {
		old := best.Load()
		if c >= old || best.CompareAndSwap(old, c) {
			return
		}
	}
}

// meets is HasLeadingZeroBits with the common case (at most 64 bits) in
// one comparison.
func meets(sum []byte, bits int) bool {
	if bits <= 0 {
		return true
	}
	if bits <= 64 {
		return binary.BigEndian.Uint64(sum[:8])>>(64-bits) == 0
	}
	return HasLeadingZeroBits(sum[:sha256.Size], bits)
}
