// Package proof implements the Iyra identity proof of work: a SHA-256 hex
// digest over the challenge followed by a decimal solution string must start
// with a given number of '0' characters. It is its own package so the runner
// (which solves) and the reference server (which verifies) share one
// definition and the vectors can pin it down.
package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/pow"
)

// canonical is the only accepted spelling of a solution: an unsigned decimal
// integer without sign, leading zeros, fraction or exponent, at most 20
// digits. IYRA-PROOF-DECIMAL (REFERENCE: the contract only says "decimal
// solution string"; the kit rejects non-canonical spellings so that one
// number has one proof).
var canonical = regexp.MustCompile(`^(0|[1-9][0-9]{0,19})$`)

// Reasons a solution is refused; the server maps them to error codes.
var (
	ErrNotCanonical = errors.New("solution is not a canonical decimal string")
	ErrExpired      = errors.New("challenge expired")
	ErrDigest       = errors.New("digest does not start with the required zeroes")
	ErrDifficulty   = errors.New("difficulty out of range")
)

// MaxDifficulty bounds the difficulty so a digest prefix check stays within
// the 64 hex characters of SHA-256.
const MaxDifficulty = 64

// Canonical reports whether solution is a canonical decimal string.
func Canonical(solution string) bool { return canonical.MatchString(solution) }

// Digest returns the lower-case hex SHA-256 of challenge+solution, the value
// whose prefix the proof constrains. IYRA-PROOF-POW
func Digest(challenge, solution string) string {
	sum := sha256.Sum256([]byte(challenge + solution))
	return hex.EncodeToString(sum[:])
}

// Meets reports whether digest starts with difficulty '0' characters.
func Meets(digest string, difficulty int) bool {
	if difficulty < 0 || difficulty > len(digest) {
		return false
	}
	return strings.Count(digest[:difficulty], "0") == difficulty
}

// Verify checks a solution the way the server does: canonical spelling
// first (IYRA-PROOF-DECIMAL), then expiry (IYRA-PROOF-EXPIRY: a challenge
// is usable strictly before expires_at), then the digest (IYRA-PROOF-POW).
func Verify(challenge string, difficulty int, expiresAt, now time.Time, solution string) error {
	switch {
	case difficulty < 0 || difficulty > MaxDifficulty:
		return ErrDifficulty
	case !Canonical(solution):
		return ErrNotCanonical
	case !now.Before(expiresAt):
		return ErrExpired
	case !Meets(Digest(challenge, solution), difficulty):
		return ErrDigest
	}
	return nil
}

// Solve finds the smallest canonical decimal that meets difficulty (the
// one a search 0, 1, 2, ... finds), on every core: a difficulty of d hex
// zeroes is 4d zero bits, searched by reference/pow. It stops when ctx
// ends, so a runner facing an unexpectedly hard challenge reports a
// harness error instead of hanging.
func Solve(ctx context.Context, challenge string, difficulty int) (string, error) {
	if difficulty < 0 || difficulty > MaxDifficulty {
		return "", ErrDifficulty
	}
	n, err := pow.SearchDecimal(ctx, challenge, 4*difficulty, 0)
	if err != nil {
		return "", err
	}
	return strconv.FormatUint(n, 10), nil
}
