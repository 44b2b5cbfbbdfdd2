package pyyol_test

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// pushSlipsRound3 are the third round of agent-endpoint slips
// (docs/detection.md, "pyyol-push (round 3)"): a Bearer trusted in place
// of the HMAC, a nonce store that forgets inside the window (by the
// timestamp's age, or at a match's start or end), a timestamp parsed with
// one fixed layout, the signature checked over the path below the mount,
// a handshake's accepted written as a string.
func pushSlipsRound3() []pushSlip {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []pushSlip{
		{"a matching Bearer token trusted without the HMAC", "PYYOL-SIGN-BAD", verifier{trustsBearer: true}.wrap},
		{"nonces forgotten once their timestamp is 60 s old", "PYYOL-SIGN-REPLAY", verifier{forgetAfter: time.Minute}.wrap},
		{"the nonce store emptied at every /initialize", "PYYOL-SIGN-REPLAY", verifier{resetOn: "/initialize"}.wrap},
		{"the timestamp parsed with the layout of the docs' example only", "PYYOL-SIGN-SKEW-WINDOW", verifier{layout: "2006-01-02T15:04:05Z"}.wrap},
		{"the signature checked over the path below the agent's mount", "PYYOL-SIGN-PATH", verifier{belowMount: true}.wrap},
		{"the handshake's accepted sent as the string true", "PYYOL-PUSH-HANDSHAKE", func() http.Handler {
			return onRoute("/handshake", func(_ *int, b []byte) []byte {
				var m map[string]any
				if json.Unmarshal(b, &m) == nil {
					m["accepted"] = "true"
					b, _ = json.Marshal(m)
				}
				return b
			})(faithful())
		}},
	}
}
