package server

import (
	"bytes"
	"encoding/json"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/skeleton"
)

type client struct {
	t   testing.TB
	h   http.Handler
	key string
}

func (c *client) call(method, path string, body any) (int, map[string]any, http.Header) {
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		raw, _ = json.Marshal(b)
	}
	req := httptest.NewRequest(method, BasePath+path, bytes.NewReader(raw))
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	var out map[string]any
	json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out, rec.Header()
}

func newClient(t testing.TB, h http.Handler) *client {
	c := &client{t: t, h: h}
	code, out, _ := c.call("POST", "/register", map[string]string{"name": "tester"})
	if code != 201 {
		t.Fatalf("register: %d %v", code, out)
	}
	c.key = out["api_key"].(string)
	return c
}

func (c *client) start(budget int) string {
	code, out, _ := c.call("POST", "/runs", map[string]int{"budget_turns": budget})
	if code != 201 {
		c.t.Fatalf("start: %d %v", code, out)
	}
	return out["run_id"].(string)
}

func turnOf(out map[string]any) int { return int(out["state"].(map[string]any)["turn"].(float64)) }

// TestConcurrentActionsNeverCorruptState fires many overlapping actions at
// one run: each answer is 200 or 409, and the final turn equals the number
// of accepted looks.
func TestConcurrentActionsNeverCorruptState(t *testing.T) {
	s := New(skeleton.Config{Seed: 1})
	s.SetActionDelay(time.Millisecond)
	c := newClient(t, s)
	run := c.start(200)
	var mu sync.Mutex
	ok, conflict := 0, 0
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, _ := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"})
			mu.Lock()
			defer mu.Unlock()
			switch code {
			case 200:
				ok++
			case 409:
				conflict++
			default:
				t.Errorf("status %d", code)
			}
		}()
	}
	wg.Wait()
	_, out, _ := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "status"})
	if turnOf(out) != ok || conflict == 0 || ok == 0 {
		t.Fatalf("turn %d after %d accepted and %d refused looks", turnOf(out), ok, conflict)
	}
}

// TestDailyResetAtJSTMidnight drives the clock across 00:00 JST.
func TestDailyResetAtJSTMidnight(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	clock := skeleton.NewClock(time.Date(2025, 1, 1, 23, 59, 0, 0, jst))
	s := New(skeleton.Config{Seed: 1, Now: clock.Now}, WithLimits(Limits{RunsPerKey: 1, WritesPerAgent: 3, WritesAll: 100, Registrations: 10}))
	c := newClient(t, s)
	run := c.start(50)
	c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"})
	c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"})
	code, out, h := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"})
	if code != 429 || out["code"] != "daily_write_limit" || h.Get("Retry-After") != "60" {
		t.Fatalf("4th write: %d %v Retry-After %q", code, out, h.Get("Retry-After"))
	}
	if reset := out["limit"].(map[string]any)["reset_at"]; reset != "2025-01-01T15:00:00Z" {
		t.Fatalf("reset_at %v", reset)
	}
	if code, _, _ := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "status"}); code != 200 {
		t.Fatalf("status with the quota spent: %d", code)
	}
	if code, _, _ := c.call("POST", "/runs", map[string]int{"budget_turns": 5}); code != 429 {
		t.Fatalf("second run of the day: %d", code)
	}
	clock.Advance(61 * time.Second)
	if code, out, _ := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"}); code != 200 || turnOf(out) != 3 {
		t.Fatalf("after 00:00 JST: %d %v", code, out)
	}
}

// TestBadInputChangesNothing sends malformed bodies and checks a clear 4xx
// with a code and an untouched run.
func TestBadInputChangesNothing(t *testing.T) {
	s := New(skeleton.Config{Seed: 1})
	c := newClient(t, s)
	run := c.start(10)
	for _, body := range []string{`{`, `{"action": 1}`, `{}`, `{"action":"fly"}`, `{"action":"read","arg":7}`, `[1]`} {
		code, out, _ := c.call("POST", "/runs/"+run+"/action", body)
		if code != 400 || out["code"] == "" || out["message"] == "" {
			t.Errorf("%s: %d %v", body, code, out)
		}
	}
	_, out, _ := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "status"})
	if turnOf(out) != 0 {
		t.Fatalf("bad input changed the run: turn %d", turnOf(out))
	}
}

// TestLogLinesCarryNoSecrets checks the request log: one line per request,
// with method, path and status, and never the API key.
func TestLogLinesCarryNoSecrets(t *testing.T) {
	var buf bytes.Buffer
	s := New(skeleton.Config{Seed: 1, Log: log.New(&buf, "", 0)})
	c := newClient(t, s)
	c.start(5)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "POST "+BasePath+"/runs 201 ") || strings.Contains(buf.String(), c.key) {
		t.Fatalf("log:\n%s", buf.String())
	}
}

// TestSameConfigSameRuns checks the server's randomness comes from its seed.
func TestSameConfigSameRuns(t *testing.T) {
	ids := func() string {
		c := newClient(t, New(skeleton.Config{Seed: 42}))
		return c.key + c.start(5)
	}
	if first, second := ids(), ids(); first != second {
		t.Fatal("two servers with one seed gave different keys or run IDs")
	}
}

// TestHeldActionOverlapsHoweverLateTheSecondComes: an action held by
// HoldNextAction lasts until a second request on its run has been
// refused, so the two overlap even when the second is sent long after the
// first (300 ms here, twice the fixed delay the kit once used); the
// action after them is not held.
func TestHeldActionOverlapsHoweverLateTheSecondComes(t *testing.T) {
	s := New(skeleton.Config{Seed: 1})
	c := newClient(t, s)
	run := c.start(200)
	if err := s.HoldNextAction(run, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 300 * time.Millisecond)
			codes[i], _, _ = c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"})
		}()
	}
	wg.Wait()
	if codes[0]+codes[1] != http.StatusOK+http.StatusConflict || codes[0] == codes[1] {
		t.Errorf("statuses %v; want the held one 200 and the other 409", codes)
	}
	if code, _, _ := c.call("POST", "/runs/"+run+"/action", map[string]string{"action": "look"}); code != http.StatusOK {
		t.Errorf("the action after the overlap: %d", code)
	}
	if err := s.HoldNextAction("run_nope", time.Second); err == nil {
		t.Error("holding an unknown run: no error")
	}
}
