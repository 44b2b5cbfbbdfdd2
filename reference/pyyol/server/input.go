package server

import "github.com/agentgames/conformance/reference/skeleton"

// Request body limits of the platform's HTTP routes (a REFERENCE choice
// of the kit's shared input policy, README "Input policy": the docs state
// none): 64 KiB for every JSON body, 256 KiB for a manifest (JSON or
// YAML). Every JSON body is read under the
// shared input policy (reference/skeleton.ReadJSON: valid UTF-8, one
// object, no repeated key, only the documented fields) and refused with
// the route's documented error code, changing nothing.
const (
	maxBody     = skeleton.DefaultMaxRequest
	maxManifest = 256 << 10
)

// policyMessage is the message of a refused body: the input policy's
// when it refused, otherwise what the route expects.
func policyMessage(ierr *skeleton.InputError, expected string) string {
	if ierr != nil {
		return ierr.Message
	}
	return expected
}
