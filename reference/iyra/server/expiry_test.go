package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/skeleton"
)

// TestUnverifiedAcceptancesExpire: a client accepting in a loop and never
// verifying cannot grow the server without bound.
func TestUnverifiedAcceptancesExpire(t *testing.T) {
	clock := skeleton.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := New(Options{Seed: 1, Now: clock.Now})
	accept := func() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, BasePath+"/tasks/play/accept",
			strings.NewReader(`{"name":"a","model":"m"}`)))
		if rec.Code != http.StatusCreated {
			t.Fatalf("accept: %d %s", rec.Code, rec.Body)
		}
	}
	for i := 0; i < 100; i++ {
		accept()
	}
	clock.Advance(s.opts.ChallengeTTL + acceptGrace - time.Second)
	accept()
	if len(s.agents) != 101 || len(s.chals) != 101 {
		t.Fatalf("within the grace nothing is forgotten: %d agents, %d challenges", len(s.agents), len(s.chals))
	}
	clock.Advance(2 * time.Second)
	accept()
	if len(s.agents) != 2 || len(s.chals) != 2 || len(s.pending) != 2 {
		t.Fatalf("expired acceptances are forgotten: %d agents, %d challenges, %d pending", len(s.agents), len(s.chals), len(s.pending))
	}
}

// TestErrorMessagesNeverShowGoTypes: a wrong field type is described in
// the contract's terms.
func TestErrorMessagesNeverShowGoTypes(t *testing.T) {
	s := New(Options{Seed: 1})
	for _, body := range []string{`{"name":5,"model":"m"}`, `{"name":"a","model":"m","x":1}`, "{\"name\":\"\xff\",\"model\":\"m\"}", `{"name":"a","name":"b","model":"m"}`} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, BasePath+"/tasks/play/accept", strings.NewReader(body)))
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"code":"malformed_json"`) {
			t.Errorf("%q: %d %s", body, rec.Code, rec.Body)
		}
		for _, goWord := range []string{"*string", "json:", "struct", "server."} {
			if strings.Contains(rec.Body.String(), goWord) {
				t.Errorf("%q: %s shows %s", body, rec.Body, goWord)
			}
		}
	}
}
