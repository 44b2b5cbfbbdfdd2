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
	}
	require.Empty(t, other.all(), "the other origin received requests: %s", strings.Join(other.all(), "\n"))
}

// TestTheKeyInTheURLCheckSpendsAThrowawayIdentity: the Iyra check that a key
// in the URL is refused puts a key into a URL, which access logs keep; that
// key is never one the run uses for anything but its own registration.
func TestTheKeyInTheURLCheckSpendsAThrowawayIdentity(t *testing.T) {
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
