package faults_test

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/audit"
	"github.com/agentgames/conformance/reference/faults"
)

// anyPost is a fault every POST meets.
var anyPost = faults.Fault{Name: "teapot", Rule: "X-TEAPOT", Status: 418, Doc: "documented teapot",
	Applies: func(method, _ string, _ []byte) bool { return method == http.MethodPost },
	Answer:  func(w http.ResponseWriter, _ time.Time) { w.WriteHeader(418) }}

// TestTheFaultLogNamesTheRequestWithoutAKey: each injection's line names
// the request it met (method, path, the query's names, the agent and the
// request's number), and no key, whether sent in Authorization and
// repeated in the path, under a credential-named parameter, or under a
// name that says nothing; a short number (a page) stays readable. A
// credential-named value names the agent, as the audit files it.
func TestTheFaultLogNamesTheRequestWithoutAKey(t *testing.T) {
	const key = "sk-live-Q7xv93LmP2"
	cases := []struct {
		target, header, want string
	}{
		{"/base/runs/" + key + "/act", key, "into POST /base/runs/[redacted]/act (" + audit.AgentName(key) + ", request #1)"},
		{"/base/w?api_key=" + key, "", "into POST /base/w?api_key=[redacted] (" + audit.AgentName(key) + ", request #1)"},
		{"/base/w?k=" + key + "&page=2", "", "into POST /base/w?k=[redacted]&page=2 (anonymous, request #1)"},
		{"/base/w?password=hunter2&note=abc", "", "into POST /base/w?note=[redacted]&password=[redacted] (" + audit.AgentName("hunter2") + ", request #1)"},
	}
	for _, c := range cases {
		var logs bytes.Buffer
		h := faults.Wrap(echo, []faults.Fault{anyPost}, faults.Options{Rate: 1, Seed: 1, Base: "/base", Log: log.New(&logs, "", 0)})
		req := httptest.NewRequest(http.MethodPost, c.target, strings.NewReader("{}"))
		if c.header != "" {
			req.Header.Set("Authorization", "Bearer "+c.header)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		line := logs.String()
		if !strings.Contains(line, "fault injected: X-TEAPOT teapot 418 "+c.want) {
			t.Errorf("%s: log %q, want %q", c.target, line, c.want)
		}
		for _, secret := range []string{key, "hunter2"} {
			if strings.Contains(line, secret) {
				t.Errorf("%s: the log shows %q: %q", c.target, secret, line)
			}
		}
	}
}
