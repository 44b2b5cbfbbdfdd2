package skeleton

import (
	"testing"
	"time"
)

func TestClockAdvances(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := NewClock(start)
	c.Advance(90 * time.Second)
	if got, want := c.Now(), start.Add(90*time.Second); !got.Equal(want) {
		t.Fatalf("Now() = %v, want %v", got, want)
	}
}

func TestConfigClockDefaultsToWallClock(t *testing.T) {
	before := time.Now()
	got := Config{}.Clock()()
	if got.Before(before) {
		t.Fatalf("default clock %v is before %v", got, before)
	}
	fixed := time.Unix(42, 0)
	if got := (Config{Now: func() time.Time { return fixed }}).Clock()(); !got.Equal(fixed) {
		t.Fatalf("configured clock = %v, want %v", got, fixed)
	}
}
