package suite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

// fault selects one deliberate defect of the toy server.
type fault int

const (
	healthy          fault = iota
	addsTwo                // breaks TOY-INCR
	noHeader               // breaks TOY-HINT, a REFERENCE rule: a warning only
	stringValue            // breaks the OpenAPI document (TOY-OPENAPI)
	leaksSecret            // echoes the bearer key in its body
	quotaAfter20           // answers 429 to every write after the 20th request
	resetAccepted          // answers a reset 202, a status the document does not list
	issuesKeyAddsTwo       // adds two, and hands out a key with every answer
)

// toyServer is a counter that only goes up, with an optional defect.
type toyServer struct {
	mu       sync.Mutex
	value    int
	fault    fault
	requests int
	resets   int // one per scenario or property check
}

func (s *toyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if s.fault == quotaAfter20 && s.requests > 20 && r.Method == http.MethodPost {
		w.Header().Set("Retry-After", "3600")
		http.Error(w, `{"code":"daily_write_limit"}`, http.StatusTooManyRequests)
		return
	}
	if r.URL.Path == "/toy/counter/reset" {
		s.resets++
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/toy/counter/incr":
		s.value++
		if (s.fault == addsTwo || s.fault == issuesKeyAddsTwo) && s.value > 1 {
			s.value++
		}
	case r.Method == http.MethodPost && r.URL.Path == "/toy/counter/reset":
		s.value = 0
	case r.Method == http.MethodGet && r.URL.Path == "/toy/counter":
	default:
		http.Error(w, `{"code":"not_found"}`, http.StatusNotFound)
		return
	}
	if s.fault != noHeader {
		w.Header().Set("X-Toy", "yes")
	}
	w.Header().Set("Content-Type", "application/json")
	if s.fault == resetAccepted && r.URL.Path == "/toy/counter/reset" {
		w.WriteHeader(http.StatusAccepted)
	}
	switch s.fault {
	case stringValue:
		fmt.Fprintf(w, `{"value":"%d"}`, s.value)
	case leaksSecret:
		fmt.Fprintf(w, `{"value":%d,"echo":%q}`, s.value, r.Header.Get("Authorization"))
	case issuesKeyAddsTwo:
		fmt.Fprintf(w, `{"value":%d,"api_key":"toy_issued_key_0123456789"}`, s.value)
	default:
		fmt.Fprintf(w, `{"value":%d}`, s.value)
	}
}

const toySecret = "toy_secret_key_123456"

var toyCatalogue = &spec.Catalogue{Protocol: "toy", Title: "Toy", Seed: "none", Rules: []spec.Rule{
	{ID: "TOY-INCR", Level: verdict.Must, Title: "increment adds one", Quote: "adds one", Path: "$.incr"},
	{ID: "TOY-HINT", Level: verdict.Reference, Title: "toy header", Quote: "header", Path: "$.hint", Choice: "X-Toy: yes"},
	{ID: "TOY-OPTIONAL", Level: verdict.Must, Title: "optional capability", Quote: "optional", Path: "$.opt"},
	{ID: "TOY-OPENAPI", Level: verdict.Must, Title: "responses match the document", Quote: "shape", Path: "$.shape"},
	{ID: "TOY-WINDOW", Level: verdict.Must, Title: "a window waited out", Quote: "window", Path: "$.window"},
}}

// toyProtocol describes the toy counter; fault shapes its reference server.
func toyProtocol(f fault) *suite.Protocol {
	doc, err := os.ReadFile("testdata/toy/openapi.yaml")
	if err != nil {
		panic(err)
	}
	return &suite.Protocol{
		Name: "toy", Title: "Toy counter", BasePath: "/toy",
		Reference:  func(suite.ReferenceConfig) http.Handler { return &toyServer{fault: f} },
		Steps:      toySteps,
		Properties: []suite.Property{{Name: "counter matches model", Rules: []string{"TOY-INCR"}, New: newToyMachine}},
		Catalogue:  toyCatalogue, Features: os.DirFS("testdata"), OpenAPI: doc,
	}
}

type toyWorld struct {
	env  *suite.Env
	last *driver.Response
}

func (w *toyWorld) call(ctx context.Context, method, path string) error {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: method, Path: path,
		Header: map[string]string{"Authorization": "Bearer " + toySecret}})
	w.last = resp
	return err
}

func (w *toyWorld) value() (int, error) {
	var v struct{ Value int }
	return v.Value, w.last.Decode("TOY-OPENAPI", &v)
}

func toySteps(sc *suite.ScenarioContext, env *suite.Env) {
	env.HTTP.Secrets().Add(toySecret)
	w := &toyWorld{env: env}
	sc.Step(suite.Pattern(`^a fresh counter$`), func(ctx context.Context) error { return w.call(ctx, "POST", "/counter/reset") })
	sc.Step(suite.Pattern(`^the agent increments the counter$`), func(ctx context.Context) error { return w.call(ctx, "POST", "/counter/incr") })
	sc.Step(suite.Pattern(`^the agent increments the counter twice$`), func(ctx context.Context) error {
		if err := w.call(ctx, "POST", "/counter/incr"); err != nil {
			return err
		}
		return w.call(ctx, "POST", "/counter/incr")
	})
	sc.Step(suite.Pattern(`^the agent increments the counter (\d+) times$`), func(ctx context.Context, n int) error {
		for i := 0; i < n; i++ {
			if err := w.call(ctx, "POST", "/counter/incr"); err != nil {
				return err
			}
		}
		return nil
	})
	sc.Step(suite.Pattern(`^the agent reads the counter$`), func(ctx context.Context) error { return w.call(ctx, "GET", "/counter") })
	sc.Step(suite.Pattern(`^the counter reads (\d+)$`), func(ctx context.Context, want int) error {
		if err := w.call(ctx, "GET", "/counter"); err != nil {
			return err
		}
		got, err := w.value()
		if err != nil {
			return err
		}
		if got != want {
			return verdict.Failf("TOY-INCR", want, got, "counter after increments; target said %s", w.last.Body)
		}
		return nil
	})
	sc.Step(suite.Pattern(`^the response carries the toy header$`), func() error {
		if h := w.last.Header.Get("X-Toy"); h != "yes" {
			return verdict.Failf("TOY-HINT", "X-Toy: yes", h, "")
		}
		return nil
	})
	sc.Step(suite.Pattern(`^the agent asks for the optional capability$`), func() error { return verdict.Skipf("toy has no such capability") })
	sc.Step(suite.Pattern(`^nothing is judged$`), func() error { return nil })
}

// toyMachine drives the target and a model counter side by side.
type toyMachine struct {
	w     *toyWorld
	model int
}

func newToyMachine(ctx context.Context, env *suite.Env) (suite.Machine, error) {
	m := &toyMachine{w: &toyWorld{env: env}}
	return m, m.w.call(ctx, "POST", "/counter/reset")
}

func (m *toyMachine) Draw(t *rapid.T) suite.Action {
	op := rapid.SampledFrom([]string{"incr", "read"}).Draw(t, "op")
	raw, _ := json.Marshal(map[string]string{"op": op})
	return raw
}

func (m *toyMachine) Apply(ctx context.Context, a suite.Action) error {
	var act struct{ Op string }
	if err := json.Unmarshal(a, &act); err != nil {
		return verdict.Errorf("bad action %s", a)
	}
	method, path := "GET", "/counter"
	if act.Op == "incr" {
		method, path = "POST", "/counter/incr"
		m.model++
	}
	if err := m.w.call(ctx, method, path); err != nil {
		return err
	}
	got, err := m.w.value()
	if err != nil {
		return err
	}
	if got != m.model {
		return verdict.Failf("TOY-INCR", m.model, got, "counter after %s", act.Op)
	}
	return nil
}
