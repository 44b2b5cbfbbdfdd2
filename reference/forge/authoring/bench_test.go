package authoring_test

import (
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/authoring"
)

// BenchmarkValidate measures full package validation (schema, types,
// bounds, 200 generated inputs x 3 runs, examples) of seed level 10.
func BenchmarkValidate(b *testing.B) {
	seed, err := forge.SeedPackages()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for b.Loop() {
		n, err := authoring.Normalize(seed[9])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (authoring.Validator{}).Validate(n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "validations/s")
	b.ReportMetric(authoring.GeneratedInputs*authoring.RunsPerInput, "oracle-runs/validation")
}
