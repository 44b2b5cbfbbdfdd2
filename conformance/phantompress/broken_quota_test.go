package phantompress

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// TestBrokenQuotasAreCaught: the per-agent limits are reached live with
// --exhaust-quotas; the server-wide ones and the quota outage need the
// embedded reference's counters (@control), so those cases replace it.
func TestBrokenQuotasAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, quotaCases())
}

// quotaCases each loosen or mis-answer one daily quota.
var quotaCases = tamperTable("daily quotas", func() []harness.Case {
	limits := func(edit func(l *pp.Limits)) pp.Limits {
		l := pp.DefaultLimits
		edit(&l)
		return l
	}
	return []harness.Case{
		{Name: "a 1001st write accepted", Rule: "PP-QUOTA-WRITES-AGENT", ExhaustQuotas: true, Seed: 3,
			Target: pp.New(suite.ReferenceConfig{Seed: 3}, pp.WithLimits(limits(func(l *pp.Limits) { l.WritesPerAgent++ })))},
		{Name: "a 31st run accepted", Rule: "PP-QUOTA-RUNS", ExhaustQuotas: true, Seed: 3,
			Target: pp.New(suite.ReferenceConfig{Seed: 3}, pp.WithLimits(limits(func(l *pp.Limits) { l.RunsPerKey++ })))},
		{Name: "a write limit answered without Retry-After", Rule: "PP-QUOTA-429", ExhaustQuotas: true, Seed: 3,
			Target: dropHeaderOn(ppRef(), http.StatusTooManyRequests, "Retry-After")},
		// Round 2 (docs/detection.md): the header missing on one route only.
		{Name: "a run creation's 429 without Retry-After", Rule: "PP-QUOTA-429", ExhaustQuotas: true, Seed: 3, Target: runCreation429()},
		// Round 3: a Retry-After counted to 00:00 UTC, not JST.
		{Name: "a Retry-After counted to 00:00 UTC", Rule: "PP-QUOTA-RESET", ExhaustQuotas: true, Seed: 3, Target: retryAfterToUTCMidnight()},
		// Round 4: the limit one run early.
		{Name: "the 30th run refused", Rule: "PP-QUOTA-RUNS", ExhaustQuotas: true, Seed: 3,
			Target: pp.New(suite.ReferenceConfig{Seed: 3}, pp.WithLimits(limits(func(l *pp.Limits) { l.RunsPerKey-- })))},
		{Name: "status refused once the writes are spent", Rule: "PP-STATUS-NOT-WRITE", ExhaustQuotas: true, Seed: 3,
			Target: statusCountedAsWrite()},
		{Name: "a 3001st write server-wide accepted", Rule: "PP-QUOTA-WRITES-ALL", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			return pp.New(cfg, pp.WithLimits(limits(func(l *pp.Limits) { l.WritesAll++ })))
		}},
		{Name: "a 201st registration accepted", Rule: "PP-QUOTA-REGISTER", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			return pp.New(cfg, pp.WithLimits(limits(func(l *pp.Limits) { l.Registrations++ })))
		}},
		{Name: "a quota outage answered without Retry-After", Rule: "PP-QUOTA-503", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			return noRetryOn503{pp.New(cfg)}
		}},
	}
})

// dropHeaderOn serves h, leaving header out of its answers with status.
func dropHeaderOn(h http.Handler, status int, header string) http.Handler {
	return headerDropped(h, header, func(_ *http.Request, st int) bool { return st == status })
}

// noRetryOn503 is the embedded reference, its controls included, with no
// Retry-After on a quota outage.
type noRetryOn503 struct{ *pp.Server }

func (s noRetryOn503) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	dropHeaderOn(s.Server, http.StatusServiceUnavailable, "Retry-After").ServeHTTP(w, r)
}

// statusCountedAsWrite refuses status with 429 to a key whose writes were
// refused for the daily limit, as if status were a write.
func statusCountedAsWrite() http.Handler {
	ref := ppRef()
	var mu sync.Mutex
	spent := map[string]bool{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Authorization")
		raw, _ := readAll(r)
		restore(r, raw)
		mu.Lock()
		over := spent[key]
		mu.Unlock()
		if over && strings.HasSuffix(r.URL.Path, "/action") && strings.Contains(string(raw), `"status"`) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"code":"daily_write_limit","error":"daily write limit reached"}`))
			return
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, r)
		if rec.Code == http.StatusTooManyRequests {
			mu.Lock()
			spent[key] = true
			mu.Unlock()
		}
		copyResponse(w, rec)
	})
}
