package forge_test

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/forge"
)

// oversizedPackage is an authored package whose first hidden input holds
// n values (the schema allows 64).
func oversizedPackage(t testing.TB, id string, n int) []byte {
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(seed[0], &p))
	p["id"] = id
	big := make([]int, n)
	for i := range big {
		big[i] = 100000 + i
	}
	p["private"].(map[string]any)["hiddenInputs"].([]any)[0] = big
	raw, _ := json.Marshal(p)
	return raw
}

// TestAnOversizedPackageIsRefusedAndChangesNothing: a package 100 times
// over the schema's array bound, or 2 600 times, is a 422 SCHEMA_INVALID
// that appends nothing and records no key; under a key the agent already
// used it is the 409 a reused key gets.
func TestAnOversizedPackageIsRefusedAndChangesNothing(t *testing.T) {
	e, _ := newEngine(t)
	a := agent(t, e, "author")
	for _, n := range []int{65, 6400, 170_000} {
		_, _, err := e.Append(a, "key-oversized", oversizedPackage(t, "lvl-big", n))
		require.Error(t, err, n)
		fe := err.(*forge.Error)
		assert.Equal(t, 422, fe.Status, n)
		assert.Equal(t, "SCHEMA_INVALID", fe.Code, n)
	}
	assert.Equal(t, 10, e.Chain().Length)
	_, _, err := e.Append(a, "key-oversized", authoredPackage(t, "lvl-fine"))
	require.NoError(t, err, "the refused packages recorded no key")
	_, _, err = e.Append(a, "key-oversized", oversizedPackage(t, "lvl-big", 6400))
	assert.Equal(t, "IDEMPOTENCY_KEY_REUSED", err.(*forge.Error).Code)
}

// refusalCost returns the allocations and bytes allocated by one refusal
// of body, averaged over runs.
func refusalCost(e *forge.Engine, a *forge.Agent, body []byte) (allocs, bytes float64) {
	const runs = 5
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		_, _, _ = e.Append(a, "key-oversized", body)
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / runs, float64(after.TotalAlloc-before.TotalAlloc) / runs
}

// TestRefusingAnOversizedPackageCostsWhatTheBoundsAllow: the work of a
// refusal is bounded by the schema's bounds, not by the package: a
// 170 000-value hidden input (about 1.2 MB) costs no more allocations or
// bytes than a 6 400-value one, and both stay far below the package's own
// size (nothing decodes the package before the prescan refuses it).
func TestRefusingAnOversizedPackageCostsWhatTheBoundsAllow(t *testing.T) {
	e, _ := newEngine(t)
	a := agent(t, e, "author")
	small, huge := oversizedPackage(t, "lvl-big", 6400), oversizedPackage(t, "lvl-big", 170_000)
	smallAllocs, smallBytes := refusalCost(e, a, small)
	hugeAllocs, hugeBytes := refusalCost(e, a, huge)
	t.Logf("6 400 values (%d bytes): %.0f allocs, %.0f B; 170 000 values (%d bytes): %.0f allocs, %.0f B",
		len(small), smallAllocs, smallBytes, len(huge), hugeAllocs, hugeBytes)
	assert.LessOrEqual(t, hugeAllocs, smallAllocs*1.1+10, "allocations grow with the package")
	assert.LessOrEqual(t, hugeBytes, smallBytes*1.1+4096, "bytes allocated grow with the package")
	assert.Less(t, hugeBytes, float64(len(huge))/10, "the refusal decoded the package")
	assert.Less(t, hugeAllocs, 1000.0)
}

// BenchmarkRefuseOversizedPackage measures refusing a package with a
// 170 000-value hidden input (issue 21: 3.5 s before the prescan).
func BenchmarkRefuseOversizedPackage(b *testing.B) {
	e, err := forge.New(forge.Options{Seed: 1})
	require.NoError(b, err)
	reg, _ := e.Register("author")
	a, _ := e.Authenticate(reg.APIKey)
	body := oversizedPackage(b, "lvl-big", 170_000)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := e.Append(a, "key-oversized", body); err == nil {
			b.Fatal("accepted")
		}
	}
}
