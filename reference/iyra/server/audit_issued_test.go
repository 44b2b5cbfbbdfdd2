package server

import (
	"net/http"
	"testing"

	"github.com/agentgames/conformance/reference/audit"
)

// TestVerificationIssuesTheKeyToTheAudit: the api_key a 2xx answer
// discloses is the one IssuedKeys reports; a refusal issues none.
func TestVerificationIssuesTheKeyToTheAudit(t *testing.T) {
	a := NewAuditor().(*Auditor)
	ok := &audit.Exchange{Status: http.StatusOK, RespBody: []byte(`{"agent_id":"x","api_key":"aa_0123456789abcdef"}`)}
	if got := a.IssuedKeys(ok); len(got) != 1 || got[0] != "aa_0123456789abcdef" {
		t.Errorf("issued %v", got)
	}
	refused := &audit.Exchange{Status: http.StatusConflict, RespBody: []byte(`{"error":"already_verified","api_key":"aa_0123456789abcdef"}`)}
	if got := a.IssuedKeys(refused); got != nil {
		t.Errorf("a refusal issued %v", got)
	}
}
