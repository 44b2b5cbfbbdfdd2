package bounty

import (
	"errors"
	"fmt"
	"io"
)

// Shamir secret sharing over GF(2^8) with the AES polynomial 0x11b. A share
// is the polynomial's values at x for every byte of the secret, followed by
// the x byte itself (BOUNTY-SHARE-LAYOUT): the layout HashiCorp Vault's
// shamir package uses, so either implementation combines the other's shares.
// The code is written from the mathematics, not copied.

// gfExp and gfLog are the exponent and logarithm tables of GF(2^8) for the
// generator 3.
var gfExp, gfLog = gfTables()

func gfTables() (exp [510]byte, log [256]byte) {
	x := byte(1)
	for i := 0; i < 255; i++ {
		exp[i] = x
		exp[i+255] = x
		log[x] = byte(i)
		x = gfMulSlow(x, 3)
	}
	return exp, log
}

// gfMulSlow multiplies by shift-and-reduce; it only builds the tables.
func gfMulSlow(a, b byte) byte {
	var p byte
	for b != 0 {
		if b&1 != 0 {
			p ^= a
		}
		hi := a & 0x80
		a <<= 1
		if hi != 0 {
			a ^= 0x1b
		}
		b >>= 1
	}
	return p
}

func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+int(gfLog[b])]
}

func gfDiv(a, b byte) byte {
	if a == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+255-int(gfLog[b])]
}

// Share errors carry the machine-readable codes combine answers with.
var (
	ErrTooFewShares   = errors.New("too_few_shares")
	ErrDuplicateX     = errors.New("duplicate_share")
	ErrZeroX          = errors.New("zero_x")
	ErrMixedLengths   = errors.New("mixed_lengths")
	ErrShortShare     = errors.New("short_share")
	ErrBadThreshold   = errors.New("bad_threshold")
	ErrBadShareIndex  = errors.New("bad_share_index")
	ErrEmptySecretKey = errors.New("empty_secret")
)

// Split shares secret k-of-len(xs) at the given non-zero, distinct x
// values, drawing the polynomial coefficients from rnd.
func Split(secret []byte, k int, xs []byte, rnd io.Reader) ([][]byte, error) {
	if len(secret) == 0 {
		return nil, ErrEmptySecretKey
	}
	if k < 2 || k > len(xs) {
		return nil, ErrBadThreshold
	}
	if err := distinctNonZero(xs); err != nil {
		return nil, err
	}
	coeffs := make([]byte, len(secret)*(k-1))
	if _, err := io.ReadFull(rnd, coeffs); err != nil {
		return nil, fmt.Errorf("shamir: coefficients: %w", err)
	}
	out := make([][]byte, len(xs))
	for i, x := range xs {
		share := make([]byte, len(secret)+1)
		for j, s := range secret {
			share[j] = evaluate(s, coeffs[j*(k-1):(j+1)*(k-1)], x)
		}
		share[len(secret)] = x
		out[i] = share
	}
	return out, nil
}

// evaluate computes intercept + c1*x + c2*x^2 ... by Horner's rule.
func evaluate(intercept byte, coeffs []byte, x byte) byte {
	var acc byte
	for i := len(coeffs) - 1; i >= 0; i-- {
		acc = gfMul(acc, x) ^ coeffs[i]
	}
	return gfMul(acc, x) ^ intercept
}

func distinctNonZero(xs []byte) error {
	var seen [256]bool
	for _, x := range xs {
		if x == 0 {
			return ErrZeroX
		}
		if seen[x] {
			return ErrDuplicateX
		}
		seen[x] = true
	}
	return nil
}

// Combine interpolates the secret at x = 0 from at least two shares. It
// cannot know k: fewer than k shares yield a wrong secret, which is why
// combine compares the result with the key commitment (BOUNTY-SHAMIR).
func Combine(shares [][]byte) ([]byte, error) {
	if len(shares) < 2 {
		return nil, ErrTooFewShares
	}
	n := len(shares[0])
	if n < 2 {
		return nil, ErrShortShare
	}
	xs := make([]byte, len(shares))
	for i, s := range shares {
		if len(s) != n {
			return nil, ErrMixedLengths
		}
		xs[i] = s[n-1]
	}
	if err := distinctNonZero(xs); err != nil {
		return nil, err
	}
	secret := make([]byte, n-1)
	for i := range shares {
		w := lagrangeAtZero(xs, i)
		for j := range secret {
			secret[j] ^= gfMul(w, shares[i][j])
		}
	}
	return secret, nil
}

// lagrangeAtZero is the Lagrange basis polynomial of xs[i] evaluated at 0.
func lagrangeAtZero(xs []byte, i int) byte {
	w := byte(1)
	for m, xm := range xs {
		if m != i {
			// (0 - xm) / (xi - xm), with subtraction as XOR.
			w = gfMul(w, gfDiv(xm, xs[i]^xm))
		}
	}
	return w
}
