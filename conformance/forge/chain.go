package forge

import (
	"math/rand/v2"
	"strconv"
)

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x70726f6265)) }

func itoa(n int) string { return strconv.Itoa(n) }

// unlock is a level that became visible, with how many answers the
// runner had seen before the submission that unlocked it.
type unlock struct {
	view   levelView
	before int
}

// enabler is the embedded reference's Go-only switch of a level's enabled
// field (FORGE-NO-DISABLE-API: there is no HTTP way).
type enabler interface {
	SetEnabled(position int, enabled bool) bool
}
