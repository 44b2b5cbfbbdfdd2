package cli_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
)

// capture is a server on another port that keeps everything sent to it.
type capture struct {
	mu   sync.Mutex
	seen []string
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen = append(c.seen, r.Method+" "+r.URL.String()+" "+r.Header.Get("Authorization")+" "+string(body))
}

func (c *capture) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.seen...)
}

// TestARedirectingTargetGetsNoKeyElsewhere: a deployment that redirects every
// authenticated request to another port of the same host is a harness error
// (exit 2), and the other port receives nothing at all.
func TestARedirectingTargetGetsNoKeyElsewhere(t *testing.T) {
	t.Parallel()
	other := &capture{}
	elsewhere := httptest.NewServer(other)
	defer elsewhere.Close()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			http.Redirect(w, r, elsewhere.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			return
		}
		ref.ServeHTTP(w, r)
	}))
	defer target.Close()
	for protocol, base := range map[string]string{"iyra": target.URL, "phantom-press": target.URL + "/game/phantom-press/api"} {
		code, out, errOut := run("run", "--target", base, "--protocol", protocol, "--checks", "-1", "--cases", t.TempDir())
		assert.Equal(t, 2, code, "%s: %s\n%s", protocol, tail(out), errOut)
		assert.Contains(t, out, "redirecting to "+elsewhere.URL, protocol)
		t.Logf("%s: %d lines, %d same-cause groups", protocol, strings.Count(out, "\n"), strings.Count(out, "same cause:"))
	}
	require.Empty(t, other.all(), "the other origin received requests: %s", strings.Join(other.all(), "\n"))
}

// TestTheKeyInTheURLCheckSpendsAThrowawayIdentity: the Iyra check that a key
// in the URL is refused puts a key into a URL, which access logs keep; that
// key is never one the run uses for anything but its own registration.
func TestTheKeyInTheURLCheckSpendsAThrowawayIdentity(t *testing.T) {
	t.Parallel()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	var mu sync.Mutex
	inURL, bearerUse := map[string]bool{}, map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if k := r.URL.Query().Get("api_key"); k != "" {
			inURL[k] = true
		}
		if k := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "); k != "" {
			bearerUse[k]++
		}
		mu.Unlock()
		ref.ServeHTTP(w, r)
	}))
	defer srv.Close()
	code, out, _ := run("run", "--target", srv.URL, "--protocol", "iyra", "--checks", "-1", "--cases", t.TempDir())
	require.Equal(t, 0, code, tail(out))
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, inURL, "the check ran")
	for k := range inURL {
		assert.LessOrEqual(t, bearerUse[k], 1, "the key sent in a URL was used beyond reading its own assignment")
	}
}

// stalledWriter is a client that never reads: every write blocks until
// the test ends.
type stalledWriter struct {
	header  http.Header
	release chan struct{}
	stuck   *sync.WaitGroup
	once    sync.Once
}

func (s *stalledWriter) Header() http.Header { return s.header }
func (s *stalledWriter) WriteHeader(int)     {}
func (s *stalledWriter) Write(p []byte) (int, error) {
	s.once.Do(s.stuck.Done)
	<-s.release
	return len(p), nil
}

// TestAClientThatNeverReadsFreezesNoServer: while one client's answers
// are stuck in its connection, every other client of every protocol is
// still answered within a second.
func TestAClientThatNeverReadsFreezesNoServer(t *testing.T) {
	t.Parallel()
	mux := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	release := make(chan struct{})
	defer close(release)
	paths := []string{"/api/v5/tasks/play", "/game/phantom-press/api/leaderboard", "/game/phantom-press/api/runs?recent=5"}
	var stuck sync.WaitGroup
	for _, p := range paths {
		for i := 0; i < 10; i++ {
			stuck.Add(1)
			go mux.ServeHTTP(&stalledWriter{header: http.Header{}, release: release, stuck: &stuck}, httptest.NewRequest("GET", p, nil))
		}
	}
	waitAtMost(&stuck, time.Second) // every stalled answer is being written (or blocked behind one)
	for _, p := range paths {
		answered := make(chan int, 1)
		go func() {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
			answered <- rec.Code
		}()
		select {
		case code := <-answered:
			assert.Equal(t, http.StatusOK, code, p)
		case <-time.After(time.Second):
			t.Fatalf("%s: no answer within a second while another client does not read", p)
		}
	}
}

func waitAtMost(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// TestAStaticFileServerIsNotIyra: a target that is not the protocol at all
// gets one clear message and exit 1, in under 20 lines.
func TestAStaticFileServerIsNotIyra(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.FileServer(http.Dir(t.TempDir())))
	defer srv.Close()
	code, out, errOut := run("run", "--target", srv.URL, "--protocol", "iyra")
	assert.Equal(t, 1, code, out+errOut)
	assert.Contains(t, out, "the target does not look like Echoes of Iyra: GET /api/v5/tasks/play answered 404")
	assert.Less(t, strings.Count(out+errOut, "\n"), 20, out+errOut)
}

// TestADownTargetIsReportedOnce: a target that does not answer is one
// harness error (exit 2), and no rule counts as checked.
func TestADownTargetIsReportedOnce(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	for _, p := range protocols.All() {
		js := t.TempDir() + "/r.json"
		args := append([]string{"run", "--target", srv.URL, "--protocol", p.Name, "--json", js}, p.ServeFlags...)
		code, out, errOut := run(args...)
		assert.Equal(t, 2, code, out+errOut)
		assert.Equal(t, 1, strings.Count(out, "HARNESS ERROR"), out)
		assert.Contains(t, out, p.Name+": MUST rules checked on this target: 0/")
		assert.Less(t, strings.Count(out+errOut, "\n"), 20, out+errOut)
	}
}

// TestNothingSelectedSaysWhy: an empty selection names what selected
// nothing.
func TestNothingSelectedSaysWhy(t *testing.T) {
	t.Parallel()
	code, out, errOut := run("run", "--protocol", "iyra", "--tags", "@nosuchtag", "--quiet")
	assert.Equal(t, 2, code)
	assert.Contains(t, out+errOut, `nothing selected: --tags "@nosuchtag" matches no scenario or property of iyra`)
}

// TestACaseFileThatCannotBeWrittenIsVisible: failures whose case files
// cannot be written say so as a harness error.
func TestACaseFileThatCannotBeWrittenIsVisible(t *testing.T) {
	t.Parallel()
	code, out, _ := run("run", "--target", brokenActionsTarget(t), "--protocol", "iyra", "--checks", "-1",
		"--cases", "/dev/null/cases", "--quiet")
	assert.Equal(t, 1, code, tail(out))
	assert.Contains(t, out, "HARNESS ERROR: case files could not be written (--cases /dev/null/cases)")
}

// TestARunAlwaysEndsByItsDeadline: against a target that answers every
// request slowly, the run stops at --deadline and says so.
func TestARunAlwaysEndsByItsDeadline(t *testing.T) {
	t.Parallel()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		ref.ServeHTTP(w, r)
	}))
	defer slow.Close()
	start := time.Now()
	code, out, _ := run("run", "--target", slow.URL, "--protocol", "iyra", "--deadline", "1s", "--timeout", "10s")
	assert.Equal(t, 2, code, tail(out))
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.Contains(t, out, "deadline 1s (--deadline)")
	assert.Contains(t, out, "--deadline passed")
}

// TestAnOverflowingExtendFailsTheTurnLimit: a deployment whose extend
// overflows (answers 200 and a negative budget to the largest integer) is
// caught by the live run, naming PP-RUN-TURN-LIMIT.
func TestAnOverflowingExtendFailsTheTurnLimit(t *testing.T) {
	t.Parallel()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.URL.Path, "/extend") && strings.Contains(string(body), "9223372036854775807") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"run_id":"x","budget_turns":-9223372036854775619,"extension":{"turns":9223372036854775807}}`))
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		ref.ServeHTTP(w, r)
	}))
	defer broken.Close()
	js := t.TempDir() + "/r.json"
	code, out, _ := run("run", "--target", broken.URL+"/game/phantom-press/api", "--protocol", "phantom-press",
		"--rule", "PP-RUN-TURN-LIMIT", "--checks", "-1", "--quiet", "--json", js, "--cases", t.TempDir())
	assert.Equal(t, 1, code, tail(out))
	assert.Contains(t, out, "FAIL  phantom-press  The kit's input policy and overflow-safe bounds › Extending by the largest integer is refused")
	assert.Contains(t, out, "PP-RUN-TURN-LIMIT (MUST)")
}

// TestALenientInputReaderOnlyWarns: a deployment that reads an undocumented
// field or a repeated key instead of refusing it departs from the kit's
// input policy, a REFERENCE choice: a warning, never a failure.
func TestALenientInputReaderOnlyWarns(t *testing.T) {
	t.Parallel()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	lenient := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.URL.Path, "/action") && (strings.Contains(string(body), `"note"`) || strings.Count(string(body), `"action"`) > 1) {
			body = []byte(`{"action": "look"}`)
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		ref.ServeHTTP(w, r)
	}))
	defer lenient.Close()
	code, out, _ := run("run", "--target", lenient.URL+"/game/phantom-press/api", "--protocol", "phantom-press",
		"--rule", "PP-INPUT-POLICY", "--checks", "-1", "--quiet", "--cases", t.TempDir())
	assert.Equal(t, 0, code, tail(out))
	assert.Contains(t, out, "PP-INPUT-POLICY (REFERENCE)")
	assert.Contains(t, out, "RESULT: WARN")
}
