package httplog_test

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/reference/httplog"
)

func TestOneLinePerRequestWithoutSecrets(t *testing.T) {
	var buf bytes.Buffer
	h := httplog.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}), log.New(&buf, "", 0))
	req := httptest.NewRequest("POST", "/api/v5/sessions?api_key=aa_secret_123", nil)
	req.Header.Set("Authorization", "Bearer aa_secret_123")
	h.ServeHTTP(httptest.NewRecorder(), req)
	assert.Regexp(t, `^POST /api/v5/sessions 418 \S+\n$`, buf.String())
	assert.NotContains(t, buf.String(), "aa_secret_123")
}

func TestNilLoggerLeavesTheHandlerAlone(t *testing.T) {
	h := http.NewServeMux()
	assert.Same(t, h, httplog.Handler(h, nil))
}

// TestAKeyInThePathIsNotLogged: an agent that repeats its key in a path
// segment gets a log line with the segment masked.
func TestAKeyInThePathIsNotLogged(t *testing.T) {
	var buf bytes.Buffer
	h := httplog.Handler(http.NotFoundHandler(), log.New(&buf, "", 0))
	req := httptest.NewRequest("GET", "/api/agents/aa_secret_123/state", nil)
	req.Header.Set("Authorization", "Bearer aa_secret_123")
	h.ServeHTTP(httptest.NewRecorder(), req)
	assert.Regexp(t, `^GET /api/agents/\[redacted\]/state 404 \S+\n$`, buf.String())
}
