package driver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/oas"
)

const benchDoc = `
openapi: 3.0.3
info: {title: bench, version: "1"}
paths:
  /sessions/{id}:
    get:
      operationId: getSession
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: a session
          content:
            application/json:
              schema:
                type: object
                required: [session_id, revision, state]
                properties:
                  session_id: {type: string}
                  revision: {type: integer}
                  state:
                    type: object
                    properties:
                      evidence: {type: integer}
                      signal: {type: integer}
                      allies: {type: array, items: {type: string}}
`

const benchBody = `{"session_id":"s1","revision":3,"state":{"evidence":2,"signal":1,"allies":["keepers"]}}`

// BenchmarkDriverMicro is a micro benchmark: one tiny GET through the HTTP
// driver alone (OpenAPI validation, transcript recording, redaction,
// budget and limiter) against a raw http.Client loop on the same loopback
// server, interleaved, reported as "driver/raw". It leaves out everything
// a real run adds around its requests (godog, the protocols' checks,
// proof search, reports), so its ratio says nothing of the runner's speed
// on real scenarios: conformance/runbench's BenchmarkRunnerPerRequest
// measures that.
func BenchmarkDriverMicro(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, benchBody)
	}))
	defer srv.Close()
	v, err := oas.Load([]byte(benchDoc), "", "BENCH-OPENAPI")
	if err != nil {
		b.Fatal(err)
	}
	client := srv.Client()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Client: client, Validator: v,
		Budget: driver.NewBudget(0), Limiter: driver.NewLimiter(0)})
	d.Secrets().Add("aa_secret_for_bench_only")
	ctx := context.Background()
	b.ResetTimer()
	var raw, run time.Duration
	for i := 0; i < b.N; i++ { // interleaved, so load on the machine hits both sides alike
		raw += timeOne(func() { rawGet(b, client, srv.URL+"/sessions/s1") })
		run += timeOne(func() { driverGet(b, ctx, d) })
	}
	b.ReportMetric(float64(raw.Nanoseconds())/float64(b.N), "raw-ns/req")
	b.ReportMetric(float64(run.Nanoseconds())/float64(b.N), "runner-ns/req")
	b.ReportMetric(float64(run)/float64(raw), "driver/raw")
}

func timeOne(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

func rawGet(b *testing.B, c *http.Client, url string) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer aa_secret_for_bench_only")
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
}

var (
	benchRec   = &driver.Recorder{}
	benchCount int
)

func driverGet(b *testing.B, ctx context.Context, d *driver.HTTP) {
	if benchCount++; benchCount%64 == 0 {
		benchRec = &driver.Recorder{}
	}
	rec := benchRec
	resp, err := d.WithRecorder(rec).Do(ctx, driver.Request{Method: http.MethodGet, Path: "/sessions/s1",
		Header: map[string]string{"Authorization": "Bearer aa_secret_for_bench_only"}})
	if err != nil || resp.Status != 200 || len(rec.Findings()) > 0 {
		b.Fatalf("driver request: %v %v", err, rec.Findings())
	}
}
