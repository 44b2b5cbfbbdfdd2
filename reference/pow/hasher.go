package pow

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"strconv"
)

// stateDigest is where crypto/sha256's marshalled state holds the eight
// chaining words: after a 4-byte magic, big-endian, which after the last
// padded block are the digest itself.
const stateDigest = 4

// hasher is one worker's reusable state. The message is prefix || digits;
// the prefix's whole 64-byte blocks are hashed once (the midstate, mid),
// and every try hashes only the last block(s): the rest of the prefix, the
// digits incremented in place, and the SHA-256 padding written by hand,
// then reads the digest out of the marshalled state instead of calling
// Sum (which would copy the state and pad again). A try is one block
// compression, no allocation, no formatting. newHasher checks the trick
// against sha256.Sum256 and falls back to plain Sum when it disagrees.
type hasher struct {
	h     hash.Hash
	app   encoding.BinaryAppender
	mid   []byte // marshalled state after the prefix's whole blocks; nil when none
	full  int    // bytes of the prefix inside mid
	tail  int    // bytes of the prefix in block, before the digits
	msg   []byte // the prefix's tail and the digits, aliasing block
	block []byte // msg, padding and length: 64 or 128 bytes
	state []byte // AppendBinary's reused output
	fast  bool
	whole []byte // prefix || digits for the fallback path
	sum   [sha256.Size]byte
}

// newHasher prepares a worker's buffers for prefix.
func newHasher(prefix string) *hasher {
	h := &hasher{h: sha256.New(), full: len(prefix) / 64 * 64}
	h.tail = len(prefix) - h.full
	h.whole = append(make([]byte, 0, len(prefix)+20), prefix...)
	h.block = make([]byte, 0, 192)
	h.msg = append(h.block, prefix[h.full:]...)
	h.state = make([]byte, 0, 128)
	app, ok := h.h.(encoding.BinaryAppender)
	h.app = app
	if ok && h.full > 0 {
		h.h.Write(h.whole[:h.full])
		h.mid, _ = app.AppendBinary(nil)
	}
	h.fast = ok && h.selfCheck()
	return h
}

// selfCheck compares the fast path with sha256.Sum256 on three nonces
// (one, two and three padded blocks' worth of layouts are covered by the
// tests), so a crypto/sha256 whose state layout changed is never trusted.
func (h *hasher) selfCheck() bool {
	h.fast = true
	for _, n := range []uint64{0, 9, 123456789} {
		h.set(n)
		got := h.try()
		want := sha256.Sum256(h.whole)
		if len(got) < sha256.Size || !bytes.Equal(got[:sha256.Size], want[:]) {
			return false
		}
	}
	return true
}

// set puts n's digits after the prefix and re-pads.
func (h *hasher) set(n uint64) {
	h.msg = strconv.AppendUint(h.msg[:h.tail], n, 10)
	h.whole = append(h.whole[:h.full+h.tail], h.msg[h.tail:]...)
	h.pad()
}

// pad lays out SHA-256's padding after msg: 0x80, zeros, and the message
// length in bits, up to the next 64-byte boundary that leaves room.
func (h *hasher) pad() {
	size := (len(h.msg) + 9 + 63) / 64 * 64
	h.block = h.block[:size]
	h.block[len(h.msg)] = 0x80
	clear(h.block[len(h.msg)+1 : size-8])
	binary.BigEndian.PutUint64(h.block[size-8:], uint64(h.full+len(h.msg))*8)
}

// try hashes the current nonce and returns a slice starting with its
// digest.
func (h *hasher) try() []byte {
	if !h.fast {
		h.sum = sha256.Sum256(h.whole)
		return h.sum[:]
	}
	if h.mid == nil {
		h.h.Reset()
	} else if err := h.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(h.mid); err != nil {
		panic(err) // our own marshalled state: cannot happen
	}
	h.h.Write(h.block)
	h.state, _ = h.app.AppendBinary(h.state[:0])
	return h.state[stateDigest:]
}

// poll is how many tries a scan makes between two looks at abandon.
const poll = 1 << 10

// scan tries n nonces from start and returns the first that meets bits.
// Every poll tries it asks abandon (a proof found in an earlier chunk
// makes the rest of this one pointless), so an easy search's workers stop
// together instead of finishing their chunks.
func (h *hasher) scan(start, n uint64, bits int, abandon func() bool) (uint64, bool) {
	h.set(start)
	for i := uint64(0); i < n; i++ {
		if i%poll == poll-1 && abandon() {
			return 0, false
		}
		if meets(h.try(), bits) {
			return start + i, true
		}
		h.increment(start + i + 1)
	}
	return 0, false
}

// increment turns the digits into next, which is one more than they hold:
// a carry through trailing nines in place, and a full re-layout only when
// the number gains a digit.
func (h *hasher) increment(next uint64) {
	digits := h.msg[h.tail:]
	for i := len(digits) - 1; i >= 0; i-- {
		if digits[i] != '9' {
			digits[i]++
			if !h.fast {
				h.whole[h.full+h.tail+i]++
			}
			return
		}
		digits[i] = '0'
		if !h.fast {
			h.whole[h.full+h.tail+i] = '0'
		}
	}
	h.set(next)
}
