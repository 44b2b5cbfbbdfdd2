package suite

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// BenchmarkStepCall measures one step call of a func(context.Context,
// string) error handler on the direct path (directCall) and through
// reflect (reflectCall), in the same run, and reports reflect/direct: the
// direct paths are worth keeping only while that ratio is well above 1.
// Either path is nanoseconds to a step's microseconds of HTTP, which is
// why the profiles of the kit's tests do not show them.
func BenchmarkStepCall(b *testing.B) {
	expr := Pattern(`^the agent says "([^"]*)"$`)
	h := func(ctx context.Context, s string) error { return nil }
	direct := directCall(expr, h)
	convs, ctxIn := paramConvs(expr, reflect.TypeOf(h))
	viaReflect := reflectCall(expr, reflect.ValueOf(h), convs, ctxIn)
	args := []any{"hello"}
	ctx := context.Background()
	measure := func(call stepCall) time.Duration {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			if _, err := call(ctx, args); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	b.ResetTimer()
	d, r := measure(direct), measure(viaReflect)
	b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "direct-ns/call")
	b.ReportMetric(float64(r.Nanoseconds())/float64(b.N), "reflect-ns/call")
	if d > 0 {
		b.ReportMetric(float64(r)/float64(d), "reflect/direct")
	}
}
