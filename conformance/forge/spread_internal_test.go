package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
)

// limitedTarget registers agents and rejects every package, answering 429
// with Retry-After: 1 once a key has published perKey packages, and
// serving the key again after that second; it counts the packages sent
// with a key before its wait ended. Its second is the clock's, which the
// machine's waits advance: how fast the test machine is decides nothing.
type limitedTarget struct {
	clock     *suite.Clock
	mu        sync.Mutex
	perKey    int
	published map[string]int
	until     map[string]time.Time
	early     int
	agents    int
}

func newLimitedTarget(perKey int) *limitedTarget {
	return &limitedTarget{clock: suite.NewClock(time.Unix(1_800_000_000, 0)), perKey: perKey,
		published: map[string]int{}, until: map[string]time.Time{}}
}

func (lt *limitedTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if r.URL.Path == "/api/agents" {
		lt.agents++
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]string{"agentId": fmt.Sprint("agt_", lt.agents), "name": "n",
			"apiKey": fmt.Sprintf("key_%06d", lt.agents)})
		return
	}
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if until, ok := lt.until[key]; ok {
		if lt.clock.Now().Before(until) {
			lt.early++
		} else {
			delete(lt.until, key)
			lt.published[key] = 0
		}
	}
	if _, waiting := lt.until[key]; waiting || lt.published[key] >= lt.perKey {
		if !waiting {
			lt.until[key] = lt.clock.Now().Add(time.Second)
		}
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	lt.published[key]++
	w.WriteHeader(http.StatusUnprocessableEntity)
	w.Write([]byte(`{"error":{"code":"INVALID"}}`))
}

// spreadMachine is a differential machine against lt with one identity.
func spreadMachine(t *testing.T, lt *limitedTarget) *machine {
	srv := httptest.NewServer(lt)
	t.Cleanup(srv.Close)
	env := &suite.Env{HTTP: driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}), Clock: lt.clock}
	w := &world{client: &client{env: env}}
	first, err := w.register(context.Background(), "prop")
	if err != nil {
		t.Fatal(err)
	}
	return &machine{w: w, pool: &spreadPool{agents: []*agent{first}}}
}

// publishAll publishes n packages and fails on one not judged (422).
func publishAll(t *testing.T, m *machine, n int) {
	for i := range n {
		resp, err := m.publishSpread(context.Background(), fmt.Sprint("k", i), pkg{})
		if err != nil || resp.Status != http.StatusUnprocessableEntity {
			t.Fatalf("package %d: %v %v", i, resp, err)
		}
	}
}

// TestRateLimitedPackagesMoveToAnotherIdentity: a publish answered 429
// goes out again at once as another identity, registered while the pool is
// smaller than maxSpread, so every package is judged; no key is sent to
// before the end of the wait its 429 asked for.
func TestRateLimitedPackagesMoveToAnotherIdentity(t *testing.T) {
	t.Parallel()
	lt := newLimitedTarget(3)
	publishAll(t, spreadMachine(t, lt), lt.perKey*maxSpread)
	if lt.early > 0 || lt.agents != maxSpread {
		t.Errorf("%d packages sent with a key before its wait ended, %d identities registered; want 0 and %d", lt.early, lt.agents, maxSpread)
	}
}

// TestAFullPoolWaitsOutRetryAfter: once every identity of the full pool is
// limited, the property waits for the first one free again instead of
// registering more or sending early.
func TestAFullPoolWaitsOutRetryAfter(t *testing.T) {
	t.Parallel()
	lt := newLimitedTarget(3)
	publishAll(t, spreadMachine(t, lt), lt.perKey*maxSpread+2)
	if lt.early > 0 || lt.agents != maxSpread {
		t.Errorf("%d packages sent with a key before its wait ended, %d identities registered; want 0 and %d", lt.early, lt.agents, maxSpread)
	}
}
