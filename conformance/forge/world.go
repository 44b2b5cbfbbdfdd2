package forge

import (
	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// world is one scenario's state; the embedded base keeps the last answer
// (Last) and the chain length before the When step (Before).
type world struct {
	suite.Scenario[int]
	*client
	me, other      *agent
	sess           *sessionDoc
	answers        []*driver.Response
	exampleAnswers []exampleAnswer // the oracle on the public examples (probeExamples)
	rule           string          // the rule a rejected package is about
	readings       []reading       // the rejected packages sent, w.answers their answers
	authored       *authored
	names          [2]string
	unlocks        []unlock
	capped         bool
	disabled       int
	sightings      []sighting
	burstNote      string                      // the pace of a burst that met no 429 (burst)
	limited        map[string]*driver.Response // route -> a 429 the burst or its follow-up reads met (burstJudged)
	// seen are the levels a scenario met; challenges the challenge inputs
	// its sessions asked; legit the oracle outputs it was shown on purpose
	// (the private-value search, steps_authoring_private.go).
	seen       []levelView
	challenges [][]int64
	legit      []dsl.Value
	mark       int                // the first answer of the authored level's sessions
	safe       []safeAnswer       // the safe-integer boundary cases (steps_authoring_bounds.go)
	returned   *progressDoc       // the progress a correct in-order submission returned (orderJudged)
	short      *progressDoc       // the progress after a submission one output short (orderJudged)
	padded     *driver.Response   // a registration under the taken nickname with spaces round it (paddedJudged)
	edge       []*driver.Response // the delta scenario's control and short-list packages (edgeJudged)
}
