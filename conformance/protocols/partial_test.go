package protocols

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// droppedHeader marks every answer the partial wrapper gave in place of
// the reference, so a test finds them in the results' transcripts.
const droppedHeader = "X-Kit-Dropped-Route"

// drop is one route a partial deployment does not serve: the method, a
// pattern of the path below the protocol's base path, and the status a
// server without the route answers (404 from a mux, 405 from a router
// that knows the path but not the method, 501 from a stub).
type drop struct {
	method string
	path   *regexp.Regexp
	status int
}

// partial wraps a reference in a deployment that lacks routes: a dropped
// route answers its status with a plain-text body, as a generic mux would,
// before the reference ever sees the request.
func partial(h http.Handler, base string, drops []drop) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel := strings.TrimPrefix(r.URL.Path, strings.TrimSuffix(base, "/"))
		for _, d := range drops {
			if r.Method == d.method && d.path.MatchString(rel) {
				w.Header().Set(droppedHeader, "1")
				http.Error(w, http.StatusText(d.status), d.status)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

func dropped(method, path string, status int) drop {
	return drop{method: method, path: regexp.MustCompile("^" + path + "$"), status: status}
}

// partialDeployments are, per protocol, routes a deployment may lack
// without lacking the protocol: none is the preflight's documented read
// or a URL whose being served is itself a rule (FORGE's published
// documents, Iyra's trust document), and the tables mix 404, 405 and 501.
var partialDeployments = map[string][]drop{
	"iyra": {dropped("GET", "/idempotency/status", 404), dropped("GET", "/sessions/[^/]+/replay", 405),
		dropped("GET", "/store/[^/]+/versions/[^/]+", 501)},
	"phantom-press": {dropped("POST", "/runs/[^/]+/review", 404), dropped("POST", "/runs/[^/]+/extend", 405),
		dropped("POST", "/runs/[^/]+/visibility", 501)},
	"forge": {dropped("PATCH", "/api/agent", 405), dropped("POST", "/api/sessions/[^/]+/query", 404),
		dropped("GET", "/api/progress", 501)},
	"bounty": {dropped("GET", "/challenge/[^/]+/peers", 404), dropped("POST", "/challenge/[^/]+/peers", 405),
		dropped("GET", "/challenge/[^/]+/next_move", 501)},
	"share-exchange": {dropped("POST", "/control/adopt", 501)},
	"pyyol-gateway": {dropped("GET", "/games/[^/]+/stakes", 404), dropped("GET", "/admin/games/[^/]+/stakes", 404),
		dropped("PUT", "/admin/games/[^/]+/stakes", 405), dropped("POST", "/agents/[^/]+/manifest", 404),
		dropped("POST", "/agents/[^/]+/manifest/[^/]+/verify", 501), dropped("PUT", "/agents/[^/]+/manifest/[^/]+/endpoint-secret", 404)},
	"pyyol-push": {dropped("GET", "/health", 404), dropped("POST", "/game-end", 405), dropped("POST", "/event", 501)},
	// A platform without the verify route: nothing is pushed to the kit's
	// endpoint, so every check that needs a match is unchecked, naming it.
	"pyyol-platform": {dropped("POST", "/agents/[^/]+/manifest/[^/]+/verify", 501)},
}

// TestPartialDeploymentsAreCheckedForWhatTheyHave runs every protocol's
// live checks against its reference with some routes missing. A missing
// route is not a refusal: each check that met one is unchecked (a skip
// naming the route), none passes on such an answer, none fails or errs
// because of it, and the target is still taken for the protocol. Each
// protocol's run has its own reference and mostly waits (the gateway's
// turn timeouts), so they run in parallel.
func TestPartialDeploymentsAreCheckedForWhatTheyHave(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		drops := partialDeployments[p.Name]
		if len(drops) == 0 {
			t.Errorf("%s: no partial deployment in the table", p.Name)
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			rep := runPartial(t, p, drops)
			checkPartial(t, rep)
		})
	}
}

// runPartial runs p's live scenarios and a few property checks against its
// reference with drops missing.
func runPartial(t *testing.T, p *suite.Protocol, drops []drop) *verdict.Report {
	t.Helper()
	settings, err := suite.ParseSettings(p.Flags, p.ServeFlags)
	if err != nil {
		t.Fatal(err)
	}
	// The wall clock handed over (Now set), as the contract test's live run
	// does, keeps the reference's waits test-sized (the Pyyol gateway's
	// turn timeout, PYYOL-REF-TURN-TIMEOUT); the checks stay the live ones.
	srv := httptest.NewServer(partial(p.Reference(suite.ReferenceConfig{Seed: 5, Now: time.Now}), p.BasePath, drops))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL + p.BasePath,
		Seed: 5, Checks: 2, CaseDir: t.TempDir(), Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkPartial holds a partial deployment's report to the rule: no
// result that met a missing route passes, fails or errs; each is a skip
// that names the route; and at least one check met one.
func checkPartial(t *testing.T, rep *verdict.Report) {
	t.Helper()
	if len(rep.NotProtocol) > 0 || len(rep.Errors) > 0 {
		t.Fatalf("the partial deployment was not checked: wrong target %v, errors %v", rep.NotProtocol, rep.Errors)
	}
	notServed := 0
	for _, r := range rep.Results {
		met := metDroppedRoute(r)
		switch {
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			t.Errorf("%s %q: %s on a partial deployment (met a missing route: %v): %s", r.Status, r.Name, r.FailedRule, met, r.Message)
		case met && r.Status != verdict.Skip:
			t.Errorf("%s %q rests on an answer of a missing route: %s", r.Status, r.Name, r.Message)
		case met:
			if _, ok := verdict.NotServedRoute(r.Message); !ok {
				t.Errorf("skip %q met a missing route but does not name it: %s", r.Name, r.Message)
			}
			notServed++
		}
	}
	if notServed == 0 {
		t.Errorf("no check met a missing route: the table drops nothing the checks use")
	}
	t.Logf("%d of %d checks unchecked for a missing route", notServed, len(rep.Results))
}

// metDroppedRoute reports whether a result's transcript holds an answer
// the partial wrapper gave.
func metDroppedRoute(r verdict.Result) bool {
	for _, x := range r.Transcript {
		for k := range x.RespHeader {
			if strings.EqualFold(k, droppedHeader) {
				return true
			}
		}
	}
	return false
}
