package driver

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// squeezeByRune is squeeze as first written, one rune at a time: the
// oracle the run-copying squeeze must agree with.
func squeezeByRune(d decoded, track bool) decoded {
	out := decoded{plain: []byte{}}
	if track {
		out.from, out.to = []int{}, []int{}
	}
	for i := 0; i < len(d.plain); {
		r, n := utf8.DecodeRune(d.plain[i:])
		if c := d.plain[i]; (c <= ' ' || c >= 0x7f) && invisible(r) {
			i += n
			continue
		}
		out.plain = append(out.plain, d.plain[i:i+n]...)
		if track {
			out.from, out.to = append(out.from, d.from[i:i+n]...), append(out.to, d.to[i:i+n]...)
		}
		i += n
	}
	return out
}

// The squeeze that copies visible runs drops exactly the invisible
// characters the rune-by-rune one drops, and keeps every kept byte's span,
// on text mixing ASCII, Japanese, invisible characters and broken UTF-8.
func TestSqueezeAgreesWithTheRuneByRuneOne(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "k3y", " ", "\t", "\n", "校閲", "\u200b", "\u00ad", "\ufeff", "\u2060", "\xff", "\xe3\x81", "%", "\\"}
	rapid.Check(t, func(t *rapid.T) {
		var text []byte
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 40).Draw(t, "pieces") {
			text = append(text, p...)
		}
		d := decoded{plain: text, from: make([]int, len(text)), to: make([]int, len(text))}
		for i := range text {
			d.from[i], d.to[i] = i, i+1
		}
		track := rapid.Bool().Draw(t, "track")
		want, got := squeezeByRune(d, track), squeeze(d, track)
		require.Equal(t, string(want.plain), string(got.plain))
		if track {
			require.Equal(t, want.from, got.from)
			require.Equal(t, want.to, got.to)
		}
	})
}
