package suite

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestScenarioCleanupsRunOnceLastFirst: the cleanups run when the scenario
// ends, in reverse order, once, and see how it ended.
func TestScenarioCleanupsRunOnceLastFirst(t *testing.T) {
	var s Scenario[int]
	var order []string
	s.Cleanup(func() { order = append(order, "first") })
	s.Cleanup(func() {
		if !s.Failed() {
			t.Error("a cleanup of a failed scenario saw Failed() false")
		}
		order = append(order, "second")
	})
	s.end(true)
	s.end(true)
	if len(order) != 2 || order[0] != "second" || order[1] != "first" {
		t.Fatalf("cleanups ran as %v, want [second first]", order)
	}
}

// TestScenarioLastBeforeAnyAnswer: the accessors of the last answer are
// zero, and NeedLast a harness error, until a request was made.
func TestScenarioLastBeforeAnyAnswer(t *testing.T) {
	var s Scenario[NoState]
	if s.Status() != 0 || s.Body() != nil || s.Header() != nil {
		t.Fatal("an unanswered scenario reports an answer")
	}
	var harness *verdict.HarnessError
	if err := s.NeedLast(); !errors.As(err, &harness) {
		t.Fatalf("NeedLast before any answer = %v, want a harness error", err)
	}
	s.Last = &driver.Response{Status: 201, Body: []byte("{}"), Header: http.Header{"X": {"y"}}}
	if s.Status() != 201 || string(s.Body()) != "{}" || s.Header().Get("X") != "y" || s.NeedLast() != nil {
		t.Fatal("the accessors do not read the last answer")
	}
}

// TestScenarioSinceMark: after MarkWhen, SinceMark holds exactly the
// exchanges the When step made.
func TestScenarioSinceMark(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	env := &Env{HTTP: driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).WithRecorder(&driver.Recorder{})}
	s := Scenario[NoState]{env: env}
	ctx := context.Background()
	if _, err := env.HTTP.Do(ctx, driver.Request{Method: "GET", Path: "/given"}); err != nil {
		t.Fatal(err)
	}
	s.MarkWhen()
	if _, err := env.HTTP.Do(ctx, driver.Request{Method: "GET", Path: "/when"}); err != nil {
		t.Fatal(err)
	}
	got := s.SinceMark()
	if s.Mark != 1 || len(got) != 1 {
		t.Fatalf("mark %d, %d exchanges since, want 1 and 1", s.Mark, len(got))
	}
	var unbound Scenario[NoState]
	unbound.MarkWhen()
	if unbound.SinceMark() != nil {
		t.Fatal("an unbound scenario has a transcript")
	}
}
