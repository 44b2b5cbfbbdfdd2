package driver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// itemsServer serves GET /items/{id} for the id "known" (200) and answers
// 404 in the API's own error shape for any other id; everything else is a
// bare mux 404, and DELETE /items/{id} a 405.
func itemsServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/items/"):
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		case r.Method == http.MethodGet && r.URL.Path == "/items/known":
			w.Write([]byte(`{"id":"known"}`))
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/items/"):
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"code":"no_item","message":"no such item"}`))
		default:
			http.NotFound(w, r)
		}
	}))
}

// shapes is a RouteInfo standing in for the OpenAPI validator: it names
// GET /items/{id}, documents a 405 for DELETE /items/{id} when asked to,
// and takes a body with "code" for the API's error shape when asked to.
type shapes struct {
	driver.Templates
	documents405, knowsShape bool
	findings                 *[]string
}

func (s shapes) Validate(req *http.Request, status int, _ http.Header, _ []byte, _ func() (any, error)) error {
	*s.findings = append(*s.findings, req.Method+" "+req.URL.Path)
	return nil
}

func (s shapes) Documents(method, _ string, status int) bool {
	return s.documents405 && method == http.MethodDelete && status == 405
}

func (s shapes) Shaped(_, _ string, _ int, body []byte) bool {
	return s.knowsShape && strings.Contains(string(body), `"code"`)
}

func newShapes(documents405, knowsShape bool) shapes {
	return shapes{Templates: driver.Templates{"GET /items/{id}", "DELETE /items/{id}"},
		documents405: documents405, knowsShape: knowsShape, findings: new([]string)}
}

// notServed requires err to be the not-served skip of route.
func notServed(t *testing.T, err error, route string) {
	t.Helper()
	var skip *verdict.Skipped
	require.True(t, errors.As(err, &skip), "want a not-served skip, got %v", err)
	got, ok := verdict.NotServedRoute(err.Error())
	require.True(t, ok, "the skip names no route: %v", err)
	assert.Equal(t, route, got)
}

func TestAMissingRouteIsNotServedNeverAnAnswer(t *testing.T) {
	srv := itemsServer()
	defer srv.Close()
	v := newShapes(false, false)
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Validator: v}).WithRecorder(&driver.Recorder{})
	ctx := context.Background()

	_, err := d.Do(ctx, driver.Request{Method: "POST", Path: "/nothing/here", JSON: map[string]int{"a": 1}})
	notServed(t, err, "POST /nothing/here")
	_, err = d.Do(ctx, driver.Request{Method: "GET", Path: "/items/unknown"})
	notServed(t, err, "GET /items/{id}")
	_, err = d.Do(ctx, driver.Request{Method: "DELETE", Path: "/items/known"})
	notServed(t, err, "DELETE /items/{id}")
	_, err = d.Do(ctx, driver.Request{Method: "GET", Path: "/items/unknown", Allow: []int{404}})
	notServed(t, err, "GET /items/{id}")
	assert.Empty(t, *v.findings, "a route not served is no schema finding either")
	assert.Len(t, d.Recorder().Exchanges(), 4, "every missing answer stays in the transcript")
}

func TestA404ReachesTheStepOnceTheRouteIsShownServed(t *testing.T) {
	srv := itemsServer()
	defer srv.Close()
	ctx := context.Background()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Validator: newShapes(false, false)})

	scenario := d.WithRecorder(&driver.Recorder{})
	_, err := scenario.Do(ctx, driver.Request{Method: "GET", Path: "/items/known"})
	require.NoError(t, err)
	resp, err := scenario.Do(ctx, driver.Request{Method: "GET", Path: "/items/unknown"})
	require.NoError(t, err, "the route answered this scenario: its 404 means no such item")
	assert.Equal(t, 404, resp.Status)
	_, err = scenario.Do(ctx, driver.Request{Method: "GET", Path: "/other"})
	notServed(t, err, "GET /other")

	_, err = d.WithRecorder(&driver.Recorder{}).Do(ctx, driver.Request{Method: "GET", Path: "/items/unknown"})
	notServed(t, err, "GET /items/{id}")
}

func TestA404InTheProtocolsErrorShapeReachesTheStep(t *testing.T) {
	srv := itemsServer()
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Validator: newShapes(false, true)}).WithRecorder(&driver.Recorder{})
	resp, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "/items/unknown"})
	require.NoError(t, err)
	assert.Equal(t, 404, resp.Status)
	_, err = d.Do(context.Background(), driver.Request{Method: "GET", Path: "/elsewhere"})
	notServed(t, err, "GET /elsewhere")
}

func TestADocumentedOrAllowed405ReachesTheStep(t *testing.T) {
	srv := itemsServer()
	defer srv.Close()
	ctx := context.Background()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Validator: newShapes(true, false)}).WithRecorder(&driver.Recorder{})
	resp, err := d.Do(ctx, driver.Request{Method: "DELETE", Path: "/items/known"})
	require.NoError(t, err, "the contract documents this 405")
	assert.Equal(t, 405, resp.Status)

	d = driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).WithRecorder(&driver.Recorder{})
	resp, err = d.Do(ctx, driver.Request{Method: "DELETE", Path: "/items/known", Allow: []int{405}})
	require.NoError(t, err, "the step judges this 405")
	assert.Equal(t, 405, resp.Status)
}

func TestARouteUnderTestGetsItsMissingAnswer(t *testing.T) {
	srv := itemsServer()
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).WithRecorder(&driver.Recorder{})
	resp, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "/published.json", RouteUnderTest: true})
	require.NoError(t, err)
	assert.Equal(t, 404, resp.Status)
}

func TestTemplatesNameARouteUnderItsMount(t *testing.T) {
	tpl := driver.Templates{"GET /games/{game}/stakes", "GET /admin/games/{game}/stakes", "POST /agents/{agent}/manifest"}
	for path, want := range map[string]string{
		"/v1/games/goofspiel/stakes":       "GET /v1/games/{game}/stakes",
		"/v1/admin/games/goofspiel/stakes": "GET /v1/admin/games/{game}/stakes",
		"/games/goofspiel/stakes":          "GET /games/{game}/stakes",
	} {
		got, ok := tpl.Route("GET", path)
		assert.True(t, ok, path)
		assert.Equal(t, want, got, path)
	}
	_, ok := tpl.Route("GET", "/v1/agents/a1/manifest")
	assert.False(t, ok, "the method is part of the route")
	_, ok = tpl.Route("GET", "/stakes")
	assert.False(t, ok)
}
