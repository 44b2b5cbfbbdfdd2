package iyra_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/reference/iyra/proof"
	"github.com/agentgames/conformance/reference/iyra/server"
	"github.com/agentgames/conformance/spec"
)

func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	raw, err := spec.OpenAPI("iyra")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := oas.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestOpenAPIDocumentValid checks the document loads, validates, and
// documents every operation of the v5 surface with an operationId.
func TestOpenAPIDocumentValid(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	want := []string{"GET /tasks/play", "POST /tasks/play/accept", "POST /agents/verify", "GET /store/{slug}",
		"GET /store/{slug}/versions/{version_id}", "GET /store/{slug}/assignment", "POST /store/{slug}/sessions",
		"GET /idempotency/status", "GET /sessions/{session_id}", "POST /sessions/{session_id}/actions",
		"GET /sessions/{session_id}/replay", "GET /trust"}
	for _, w := range want {
		var method, path string
		for i := range w {
			if w[i] == ' ' {
				method, path = w[:i], w[i+1:]
				break
			}
		}
		item := doc.Paths.Find(path)
		if item == nil || item.GetOperation(method) == nil {
			t.Errorf("%s is not documented", w)
			continue
		}
		if item.GetOperation(method).OperationID == "" {
			t.Errorf("%s has no operationId", w)
		}
	}
}

// exchange is one request to the reference and its answer.
type exchange struct {
	req  *http.Request
	resp *httptest.ResponseRecorder
}

// traffic drives the reference through every operation and many error
// statuses, so the document is checked against real answers.
type traffic struct {
	t   *testing.T
	h   http.Handler
	log []exchange
}

func (tr *traffic) call(method, path string, body any, hdr map[string]string) map[string]any {
	tr.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, "http://iyra.test"+server.BasePath+path, rd)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	tr.h.ServeHTTP(rec, req)
	tr.log = append(tr.log, exchange{req: req, resp: rec})
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return out
}

// run plays a scripted tour of the whole surface.
func (tr *traffic) run() {
	tr.call("GET", "/tasks/play?slug=echoes-of-iyra&campaign=challenge-play-w1", nil, nil)
	tr.call("GET", "/tasks/play?slug=nope", nil, nil)
	tr.call("GET", "/store/echoes-of-iyra", nil, nil)
	tr.call("GET", "/store/nope", nil, nil)
	for _, inc := range []string{"", "?include=learning", "?include=audit", "?include=bogus"} {
		tr.call("GET", "/store/echoes-of-iyra/versions/"+server.VersionID+inc, nil, nil)
	}
	tr.call("GET", "/store/echoes-of-iyra/versions/xgv_nope", nil, nil)
	tr.call("GET", "/trust", nil, nil)
	tr.call("POST", "/tasks/play/accept", "{", nil)
	acc := tr.call("POST", "/tasks/play/accept", map[string]any{"name": "n", "model": "m"}, nil)
	agent, chal, challenge := acc["agent_id"].(string), acc["challenge_id"].(string), acc["challenge"].(string)
	sol, _ := proof.Solve(context.Background(), challenge, int(acc["difficulty"].(float64)))
	tr.call("POST", "/agents/verify", map[string]any{"agent_id": agent, "challenge_id": chal, "solution": "0" + sol}, nil)
	tr.call("POST", "/agents/verify", map[string]any{"agent_id": "agt_x", "challenge_id": chal, "solution": sol}, nil)
	ver := tr.call("POST", "/agents/verify", map[string]any{"agent_id": agent, "challenge_id": chal, "solution": sol}, nil)
	tr.call("POST", "/agents/verify", map[string]any{"agent_id": agent, "challenge_id": chal, "solution": sol}, nil)
	auth := map[string]string{"Authorization": "Bearer " + ver["api_key"].(string)}
	tr.call("GET", "/store/echoes-of-iyra/assignment", nil, nil)
	tr.call("GET", "/store/echoes-of-iyra/assignment", nil, auth)
	tr.session(auth)
}

// session covers the session operations.
func (tr *traffic) session(auth map[string]string) {
	withKey := func(k string) map[string]string {
		return map[string]string{"Authorization": auth["Authorization"], "Idempotency-Key": k}
	}
	body := map[string]any{"ready_to_act": true, "accepted_version_id": server.VersionID, "variant": "quiet_city"}
	tr.call("POST", "/store/echoes-of-iyra/sessions", body, auth)
	s := tr.call("POST", "/store/echoes-of-iyra/sessions", body, withKey("openapi-key-1"))
	tr.call("POST", "/store/echoes-of-iyra/sessions", body, withKey("openapi-key-1"))
	tr.call("POST", "/store/echoes-of-iyra/sessions", map[string]any{"ready_to_act": false, "accepted_version_id": server.VersionID}, withKey("openapi-key-2"))
	tr.call("POST", "/store/helios-relay/sessions", body, withKey("openapi-key-1"))
	tr.call("GET", "/idempotency/status", nil, withKey("openapi-key-1"))
	tr.call("GET", "/idempotency/status", nil, withKey("openapi-key-9"))
	id := s["session_id"].(string)
	tr.call("GET", "/sessions/"+id, nil, auth)
	tr.call("GET", "/sessions/ses_nope", nil, auth)
	tr.call("GET", "/sessions/"+id+"/replay", nil, auth)
	script := []string{"investigate archive", "investigate archive", "ally keepers", "investigate spire", "investigate harbor",
		"ally keepers", "select_claim record_omission", "broadcast", "withdraw"}
	for _, item := range script {
		var typ, arg string
		for i := range item {
			if item[i] == ' ' {
				typ, arg = item[:i], item[i+1:]
			}
		}
		if typ == "" {
			typ = item
		}
		a := map[string]any{"type": typ}
		switch typ {
		case "investigate":
			a["site"] = arg
		case "ally":
			a["faction"] = arg
		case "select_claim":
			a["claim"] = arg
		}
		st := tr.call("GET", "/sessions/"+id, nil, auth)
		tr.call("POST", "/sessions/"+id+"/actions", map[string]any{"revision": st["revision"], "action": a}, auth)
	}
	tr.call("POST", "/sessions/"+id+"/actions", "{", auth)
	tr.call("POST", "/sessions/"+id+"/actions", `{"revision":0}`+strings.Repeat(" ", 1<<16), auth)
	tr.call("POST", "/sessions/"+id+"/actions", map[string]any{"revision": 0, "action": map[string]any{"type": "withdraw"}}, auth)
	tr.call("GET", "/sessions/"+id+"/replay", nil, auth)
}

// TestReferenceMatchesOpenAPI validates every reference answer of the tour
// against the document and checks the tour reached the statuses it meant to.
func TestReferenceMatchesOpenAPI(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	// The document's server is relative (/api/v5); the router needs the
	// test host to match it.
	doc.Servers = openapi3.Servers{{URL: "http://iyra.test" + server.BasePath}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	tr := &traffic{t: t, h: server.New(server.Options{Seed: 1, Difficulty: 3})}
	tr.run()
	seen := map[int]bool{}
	for _, x := range tr.log {
		seen[x.resp.Code] = true
		route, params, err := router.FindRoute(x.req)
		if err != nil {
			t.Errorf("%s %s: no route: %v", x.req.Method, x.req.URL, err)
			continue
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: x.req, PathParams: params, Route: route},
			Status:                 x.resp.Code, Header: x.resp.Header(),
			Body:    io.NopCloser(bytes.NewReader(x.resp.Body.Bytes())),
			Options: &openapi3filter.Options{IncludeResponseStatus: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			t.Errorf("%s %s -> %d does not match the document: %v\n%s", x.req.Method, x.req.URL, x.resp.Code, err, x.resp.Body.String())
		}
	}
	for _, code := range []int{200, 201, 400, 401, 404, 409, 413, 422} {
		if !seen[code] {
			t.Errorf("the tour never produced status %d", code)
		}
	}
	t.Logf("validated %d responses (%s statuses)", len(tr.log), strconv.Itoa(len(seen)))
}
