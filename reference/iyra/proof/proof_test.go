package proof

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSolveMeetsAndVerifies(t *testing.T) {
	exp := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	now := exp.Add(-time.Minute)
	for d := 0; d <= 4; d++ {
		sol, err := Solve(context.Background(), "chal-abc", d)
		if err != nil {
			t.Fatal(err)
		}
		if !Canonical(sol) || !Meets(Digest("chal-abc", sol), d) {
			t.Fatalf("difficulty %d: solution %q does not qualify", d, sol)
		}
		if err := Verify("chal-abc", d, exp, now, sol); err != nil {
			t.Errorf("difficulty %d: %v", d, err)
		}
	}
}

func TestVerifyReasons(t *testing.T) {
	exp := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	sol, _ := Solve(context.Background(), "c", 3)
	cases := []struct {
		name string
		sol  string
		diff int
		now  time.Time
		want error
	}{
		{"leading zero", "0" + sol, 0, exp.Add(-time.Second), ErrNotCanonical},
		{"plus", "+7", 0, exp.Add(-time.Second), ErrNotCanonical},
		{"fraction", "7.0", 0, exp.Add(-time.Second), ErrNotCanonical},
		{"empty", "", 0, exp.Add(-time.Second), ErrNotCanonical},
		{"negative", "-1", 0, exp.Add(-time.Second), ErrNotCanonical},
		{"at expiry", sol, 3, exp, ErrExpired},
		{"difficulty too high", sol, 65, exp.Add(-time.Second), ErrDifficulty},
		{"digest", "1", 64, exp.Add(-time.Second), ErrDigest},
	}
	for _, c := range cases {
		if err := Verify("c", c.diff, exp, c.now, c.sol); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestSolveStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, "c", 64); err == nil {
		t.Error("a cancelled search returned a solution")
	}
}

func BenchmarkSolveDifficulty4(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Solve(context.Background(), "bench-challenge", 4); err != nil {
			b.Fatal(err)
		}
	}
}
