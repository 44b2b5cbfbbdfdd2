package suite_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// quotedValues rewrites every answer of h so that its value is a string:
// a break of the OpenAPI document (TOY-OPENAPI, MUST) in the same answer
// that already departs from the REFERENCE header (TOY-HINT).
func quotedValues(h http.Handler) http.Handler {
	num := regexp.MustCompile(`"value":(\d+)`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(num.ReplaceAll(rec.Body.Bytes(), []byte(`"value":"$1"`)))
	})
}

// A step that warns on a REFERENCE rule must not hide a MUST finding of the
// same response: the most severe verdict decides.
func TestMustFindingIsNotMaskedByAReferenceWarning(t *testing.T) {
	p := toyProtocol(noHeader)
	p.Reference = func(suite.ReferenceConfig) http.Handler { return quotedValues(&toyServer{fault: noHeader}) }
	srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{}))
	t.Cleanup(srv.Close)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL,
		Checks: -1, Seed: 42, CaseDir: t.TempDir()})
	require.NoError(t, err)
	r := find(t, rep, "the header is present")
	assert.Equal(t, verdict.Fail, r.Status, "%+v", r)
	assert.Equal(t, "TOY-OPENAPI", r.FailedRule)
	assert.NotEmpty(t, r.Warnings, "the REFERENCE departure stays listed beside the failure")
	assert.Equal(t, 1, rep.ExitCode())
}
