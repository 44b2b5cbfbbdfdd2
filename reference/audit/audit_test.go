package audit_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/reference/audit"
)

// seen is a watcher that keeps every exchange and flags any POST.
type seen struct{ got []audit.Exchange }

func (s *seen) Watch(ex *audit.Exchange) []audit.Finding {
	s.got = append(s.got, *ex)
	if ex.Method == http.MethodPost {
		return []audit.Finding{{Rule: "X-NO-POST", Request: ex.Request(), Detail: "posted"}}
	}
	return nil
}

func TestAuditorSeesTheExchangeAndNamesTheAgentWithoutItsKey(t *testing.T) {
	server := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTeapot)
		w.Write(append([]byte("echo:"), b...))
	})
	a, watch := audit.New(nil), &seen{}
	h := a.Wrap(server, "x", "/base", watch)
	req := httptest.NewRequest(http.MethodPost, "/base/things?q=1", strings.NewReader(`{"n":1}`))
	req.Header.Set("Authorization", "Bearer secret-key-123")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusTeapot || rec.Body.String() != `echo:{"n":1}` {
		t.Fatalf("the server's answer changed: %d %q", rec.Code, rec.Body.String())
	}
	ex := watch.got[0]
	if ex.Path != "/things" || ex.RawQuery != "q=1" || string(ex.Body) != `{"n":1}` || ex.Status != http.StatusTeapot ||
		ex.RespHeader.Get("Retry-After") != "3" || string(ex.RespBody) != `echo:{"n":1}` {
		t.Fatalf("exchange: %+v", ex)
	}
	if ex.Header.Get("Authorization") != "" || strings.Contains(ex.Agent, "secret") {
		t.Fatalf("the key leaked into the exchange: %q %q", ex.Header.Get("Authorization"), ex.Agent)
	}
	agents := a.Agents()
	if len(agents) != 1 || agents[0].Agent != audit.AgentName("secret-key-123") || agents[0].Requests["x"] != 1 ||
		len(agents[0].Findings) != 1 || agents[0].Findings[0].Protocol != "x" {
		t.Fatalf("agents: %+v", agents)
	}
	if audit.AgentName("") != "anonymous" || audit.AgentName("a") == audit.AgentName("b") {
		t.Fatal("agent names must tell keys apart and name the keyless")
	}
}

// TestFindingsShowTheRequestWithSecretsRedacted: a finding carries the
// offending request's status, query and body, with the agent's key and
// every credential-named value masked, and identifiers left alone.
func TestFindingsShowTheRequestWithSecretsRedacted(t *testing.T) {
	server := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusConflict) })
	a, watch := audit.New(nil), &seen{}
	h := a.Wrap(server, "x", "/base", watch)
	req := httptest.NewRequest(http.MethodPost, "/base/p?api_key=aa_leaked1&page=2&k=secret-key-123",
		strings.NewReader(`{"agent_id":"agent-1","agent_secret":"sk-abc","nested":{"access_token":"t0k"},"note":"secret-key-123","idempotency_key":"idem-1"}`))
	req.Header.Set("Authorization", "Bearer secret-key-123")
	h.ServeHTTP(httptest.NewRecorder(), req)
	f := a.Agents()[0].Findings[0]
	for _, leak := range []string{"aa_leaked1", "sk-abc", "t0k", "secret-key-123"} {
		if strings.Contains(f.Query+f.Body, leak) {
			t.Errorf("%q shown: %q %q", leak, f.Query, f.Body)
		}
	}
	for _, kept := range []string{"agent-1", "idem-1", "page=2"} {
		if !strings.Contains(f.Query+f.Body, kept) {
			t.Errorf("%q lost: %q %q", kept, f.Query, f.Body)
		}
	}
	if f.Status != http.StatusConflict {
		t.Errorf("status %d", f.Status)
	}
}

// TestAKeySentInTheURLIsFiledUnderItsAgent: the agent that put its key in
// a query (a rule for agents forbids it) is the same agent as when it
// sends the key in Authorization, and no finding shows the key.
func TestAKeySentInTheURLIsFiledUnderItsAgent(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	a, watch := audit.New(nil), &seen{}
	h := a.Wrap(ok, "x", "", watch)
	withHeader := httptest.NewRequest(http.MethodGet, "/things", nil)
	withHeader.Header.Set("Authorization", "Bearer sk-live-777")
	h.ServeHTTP(httptest.NewRecorder(), withHeader)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/things?api_key=sk-live-777", nil))
	agents := a.Agents()
	if len(agents) != 1 || agents[0].Agent != audit.AgentName("sk-live-777") || len(agents[0].Findings) != 1 {
		t.Fatalf("the URL-key request was filed elsewhere: %+v", agents)
	}
	if f := agents[0].Findings[0]; strings.Contains(f.Query, "sk-live-777") {
		t.Fatalf("the finding shows the key: %q", f.Query)
	}
}

// TestAKeyAnywhereInTheURLIsFiledUnderItsAgent: an agent the audit knows
// (it sent its key in Authorization before) that puts the key in a path
// segment or under a parameter name that does not say "key" is still that
// agent, and neither the finding's request line nor its query shows the
// key.
func TestAKeyAnywhereInTheURLIsFiledUnderItsAgent(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	for _, target := range []string{"/things/sk-live-777/state", "/things?k=sk-live-777&page=2", "/things?auth=Bearer%20sk-live-777"} {
		a, watch := audit.New(nil), &seen{}
		h := a.Wrap(ok, "x", "", watch)
		withHeader := httptest.NewRequest(http.MethodGet, "/things", nil)
		withHeader.Header.Set("Authorization", "Bearer sk-live-777")
		h.ServeHTTP(httptest.NewRecorder(), withHeader)
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, target, nil))
		agents := a.Agents()
		if len(agents) != 1 || agents[0].Agent != audit.AgentName("sk-live-777") || len(agents[0].Findings) != 1 {
			t.Fatalf("%s: the URL-key request was filed elsewhere: %+v", target, agents)
		}
		if got := watch.got[1].Key; got != "sk-live-777" {
			t.Errorf("%s: a watcher is not told the key it must recognise in the URL (%q)", target, got)
		}
		f := agents[0].Findings[0]
		if strings.Contains(f.Request+f.Query, "sk-live-777") {
			t.Errorf("%s: the finding shows the key: %q %q", target, f.Request, f.Query)
		}
	}
}

// TestAKeyInThePathIsRedactedFromTheRequestLine: a finding's request line
// is method and path, and a path that carries the agent's key (sent in
// Authorization too) shows it masked.
func TestAKeyInThePathIsRedactedFromTheRequestLine(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	a := audit.New(nil)
	h := a.Wrap(ok, "x", "/base", &seen{})
	req := httptest.NewRequest(http.MethodPost, "/base/keys/secret-key-123/use", nil)
	req.Header.Set("Authorization", "Bearer secret-key-123")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got := a.Agents()[0].Findings[0].Request; got != "POST /keys/[redacted]/use" {
		t.Errorf("request line %q", got)
	}
}

// issuing is a watcher whose answers hand out keys, in {"key": ...}.
type issuing struct{ seen }

func (i *issuing) IssuedKeys(ex *audit.Exchange) []string {
	if strings.Contains(string(ex.RespBody), "sk-issued-9") {
		return []string{"sk-issued-9"}
	}
	return nil
}

// TestAKeyIssuedInAnAnswerIsKnownInAURL: an agent that never sends its
// key in a header, only in a URL, is still filed under that key's agent
// when an answer issued the key (Issuer), and the key is masked.
func TestAKeyIssuedInAnAnswerIsKnownInAURL(t *testing.T) {
	issue := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/verify" {
			w.Write([]byte(`{"key":"sk-issued-9"}`))
		}
	})
	a, watch := audit.New(nil), &issuing{}
	h := a.Wrap(issue, "x", "", watch)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/verify", nil))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/things/sk-issued-9/state", nil))
	var filed *audit.AgentRecord
	for _, r := range a.Agents() {
		if r.Agent == audit.AgentName("sk-issued-9") {
			filed = &r
		}
	}
	if filed == nil || len(filed.Findings) != 1 {
		t.Fatalf("the URL-key request was not filed under the issued key's agent: %+v", a.Agents())
	}
	if strings.Contains(filed.Findings[0].Request, "sk-issued-9") {
		t.Errorf("the finding shows the key: %q", filed.Findings[0].Request)
	}
}
