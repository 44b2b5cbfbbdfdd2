package faults_test

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/faults"
)

// echo answers 200 with the body it read, so a test sees the server got
// the whole body after the injector peeked at it.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Write(b)
})

var teapot = faults.Fault{
	Name: "teapot", Rule: "X-TEAPOT", Status: 418, Doc: "documented teapot",
	Applies: func(method, path string, body []byte) bool {
		return method == http.MethodPost && path == "/w" && !bytes.Contains(body, []byte("spare"))
	},
	Answer: func(w http.ResponseWriter, _ time.Time) { w.WriteHeader(418) },
}

// statuses sends n posts of body to path and lists the answers' statuses.
func statuses(h http.Handler, n int, path, body string) []int {
	var out []int
	for i := 0; i < n; i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/base"+path, strings.NewReader(body)))
		if rec.Code == 200 && rec.Body.String() != body {
			return nil
		}
		out = append(out, rec.Code)
	}
	return out
}

func TestInjectionIsReproducibleFromTheSeed(t *testing.T) {
	opts := faults.Options{Rate: 0.5, Seed: 42, Base: "/base"}
	a := statuses(faults.Wrap(echo, []faults.Fault{teapot}, opts), 50, "/w", `{"x":1}`)
	b := statuses(faults.Wrap(echo, []faults.Fault{teapot}, opts), 50, "/w", `{"x":1}`)
	if a == nil || len(a) != 50 || !equal(a, b) {
		t.Fatalf("same seed, different draws or a body lost:\n%v\n%v", a, b)
	}
	if !contains(a, 418) || !contains(a, 200) {
		t.Fatalf("rate 0.5 drew only one outcome: %v", a)
	}
}

func TestFaultsOnlyAnswerWhereTheyApply(t *testing.T) {
	var logs bytes.Buffer
	h := faults.Wrap(echo, []faults.Fault{teapot}, faults.Options{Rate: 1, Seed: 1, Base: "/base", Log: log.New(&logs, "", 0)})
	for _, c := range []struct{ path, body string }{{"/other", "{}"}, {"/w", `{"spare":true}`}} {
		if got := statuses(h, 5, c.path, c.body); !equal(got, []int{200, 200, 200, 200, 200}) {
			t.Errorf("%s %s: %v, want the server's own answers with the body intact", c.path, c.body, got)
		}
	}
	if got := statuses(h, 2, "/w", "{}"); !equal(got, []int{418, 418}) {
		t.Errorf("rate 1: %v", got)
	}
	if !strings.Contains(logs.String(), "fault injected: X-TEAPOT teapot 418 into POST /base/w (anonymous, request #") {
		t.Errorf("log: %q", logs.String())
	}
}

func TestRateZeroLeavesTheServerAlone(t *testing.T) {
	h := faults.Wrap(echo, []faults.Fault{teapot}, faults.Options{})
	if got := statuses(h, 3, "/w", "{}"); !equal(got, []int{200, 200, 200}) {
		t.Errorf("%v", got)
	}
}

func TestParseRate(t *testing.T) {
	for v, want := range map[string]float64{"light": 0.05, "heavy": 0.3, "1": 1, "0.2": 0.2} {
		if got, err := faults.ParseRate(v); err != nil || got != want {
			t.Errorf("%s: %v %v", v, got, err)
		}
	}
	for _, v := range []string{"", "0", "1.5", "-1", "sometimes"} {
		if _, err := faults.ParseRate(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func contains(a []int, v int) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

// TestThroughFaultsReachTheServerMarked: a Through fault answers nothing
// itself; the server gets the request, body intact, marked with the
// fault's name, and only when the fault was drawn.
func TestThroughFaultsReachTheServerMarked(t *testing.T) {
	rotate := faults.Fault{Name: "rotated", Rule: "X-ROTATE", Status: 410, Through: true,
		Applies: func(method, path string, _ []byte) bool { return path == "/w" }}
	marked := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if faults.Injected(r.Context(), "rotated") {
			w.WriteHeader(410)
			return
		}
		echo.ServeHTTP(w, r)
	})
	h := faults.Wrap(marked, []faults.Fault{rotate}, faults.Options{Rate: 1, Seed: 1, Base: "/base"})
	if got := statuses(h, 2, "/w", "{}"); !equal(got, []int{410, 410}) {
		t.Errorf("drawn: %v", got)
	}
	if got := statuses(h, 2, "/other", "{}"); !equal(got, []int{200, 200}) {
		t.Errorf("not drawn: %v", got)
	}
}
