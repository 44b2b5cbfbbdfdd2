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

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
)

// limitedTarget registers agents and rejects every package, answering 429
// once a key has published perKey packages; it counts what each key sent
// after its 429.
type limitedTarget struct {
	mu        sync.Mutex
	perKey    int
	published map[string]int
	limited   map[string]bool
	afterWait int // packages sent with a key already limited
	agents    int
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
	if lt.limited[key] {
		lt.afterWait++
	}
	if lt.published[key] >= lt.perKey {
		lt.limited[key] = true
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	lt.published[key]++
	w.WriteHeader(http.StatusUnprocessableEntity)
	w.Write([]byte(`{"error":{"code":"INVALID"}}`))
}

// TestRateLimitedPackagesMoveToAnotherIdentity: a publish answered 429
// goes out again as another identity at once (registered while the pool
// is smaller than maxSpread) and never again with the limited key, so
// every package is judged while the pool has room.
func TestRateLimitedPackagesMoveToAnotherIdentity(t *testing.T) {
	t.Parallel()
	lt := &limitedTarget{perKey: 3, published: map[string]int{}, limited: map[string]bool{}}
	srv := httptest.NewServer(lt)
	defer srv.Close()
	env := &suite.Env{HTTP: driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})}
	w := &world{client: &client{env: env}}
	first, err := w.register(context.Background(), "prop")
	if err != nil {
		t.Fatal(err)
	}
	m := &machine{w: w, pool: &spreadPool{agents: []*agent{first}}}
	packages := lt.perKey*maxSpread - 1
	for i := range packages {
		resp, err := m.publishSpread(context.Background(), fmt.Sprint("k", i), pkg{})
		if err != nil || resp.Status != http.StatusUnprocessableEntity {
			t.Fatalf("package %d: %v %v", i, resp, err)
		}
	}
	if lt.afterWait > 0 || lt.agents != maxSpread {
		t.Errorf("%d packages sent with a limited key, %d identities registered; want 0 and %d", lt.afterWait, lt.agents, maxSpread)
	}
}
