package engine

import (
	"testing"

	"pgregory.net/rapid"
)

// TestSourceIDIsWitnessColonTopic: a topic's source in the case view is
// always witness:topic, whether its testimony carries exactly that (the
// string reused), something else or nothing.
func TestSourceIDIsWitnessColonTopic(t *testing.T) {
	id := rapid.StringMatching(`[a-z0-9:]{0,4}`)
	rapid.Check(t, func(t *rapid.T) {
		w, tp := Witness{ID: id.Draw(t, "witness")}, Topic{ID: id.Draw(t, "topic")}
		tp.Testimony.Source = rapid.SampledFrom([]string{w.ID + ":" + tp.ID, "", id.Draw(t, "other"), tp.ID + ":" + w.ID}).Draw(t, "source")
		if got, want := sourceID(w, tp), w.ID+":"+tp.ID; got != want {
			t.Fatalf("sourceID(%q, %q) with testimony source %q = %q, want %q", w.ID, tp.ID, tp.Testimony.Source, got, want)
		}
	})
}
