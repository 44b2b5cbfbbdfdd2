package forge_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// otherMessages rewrites every error message: the contract fixes codes
// where it names them, never the words.
func otherMessages(m map[string]any) {
	if e, ok := m["error"].(map[string]any); ok {
		if _, has := e["message"]; has {
			e["message"] = "refused by a faithful deployment"
		}
	}
}

// faithfulWide takes the choices the whole contract leaves open the other
// way at once: every answer re-encoded (its keys in another order), 200
// where the reference creates with 201, other error messages, error codes
// at the top level, the fields only the kit names left out, a levelId
// ignored and dense shared ranks (faithfulLevels).
func faithfulWide() http.Handler {
	return tamper{h: faithfulLevels(ref(dsl.Dialect{})), resp: func(r *http.Request, st *int, m map[string]any) {
		if *st == http.StatusCreated {
			*st = http.StatusOK
		}
		otherMessages(m)
		flattenError(m)
		for _, k := range kitOnlyFields {
			delete(m, k)
		}
	}}
}

// kitOnlyFields are top-level fields of the reference's answers that the
// contract never names: a faithful deployment may leave them out.
var kitOnlyFields = []string{"queriesRemaining", "status", "expiresAt", "chainLength", "createdAt", "notice"}

// flattenError moves {error: {code, message}} to the top level
// ({code, message}): the contract names codes, not where they sit.
func flattenError(m map[string]any) {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return
	}
	delete(m, "error")
	for k, v := range e {
		m[k] = v
	}
}

// TestAFaithfulDeploymentFailsNoMustRule runs every FORGE check against
// faithfulWide: no MUST rule may fail and nothing may error; REFERENCE
// warnings are allowed.
func TestAFaithfulDeploymentFailsNoMustRule(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(faithfulWide())
	defer srv.Close()
	harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{forge.Protocol()},
		Target: srv.URL, Seed: 11, Checks: 3, Settings: suite.Settings{"allow-authoring": "true"}}, 35)
}
