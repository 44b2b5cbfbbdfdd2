package jsonscan

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// tight are bounds small enough that generated documents reach each one.
var tight = Bounds{MaxDepth: 3, MaxItems: 3, MaxString: 4, MaxValues: 9}

// codeOf is an error's code, "" for none.
func codeOf(err *Error) string {
	if err == nil {
		return ""
	}
	return err.Code
}

// agree fails t when the byte scanner and the token scanner give doc
// different codes, under the default and the tight bounds.
func agree(t interface {
	Helper()
	Fatalf(string, ...any)
}, doc []byte) {
	t.Helper()
	for _, b := range []Bounds{{}, tight} {
		if got, want := codeOf(Scan(doc, b)), codeOf(tokenScan(doc, b)); got != want {
			t.Fatalf("%q under %+v: byte scanner %q, token scanner %q", doc, b, got, want)
		}
	}
}

// pieces are the fragments generated documents are made of: every token
// kind, the malformed ones and the separators in and out of place.
var pieces = []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, "\n", `"a"`, `"b"`, `"abcde"`, `"\u00e9"`, `"é"`, `"\n"`,
	`"\"`, `"\q"`, `"\u12"`, `"` + "\x01" + `"`, `"\ud800"`, "\"\xff\"", `1`, `-0`, `01`, `1.5e3`, `1.`, `-`, `.5`, `1e`, `true`, `false`,
	`null`, `nul`, `truex`, `x`, `"`}

// TestScanAgreesWithTheTokenScanner: on documents built from every kind
// of token, well placed or not, the byte scanner gives the code the
// Decoder.Token scanner gave (the refusal codes servers answer with
// must not change with the scanner).
func TestScanAgreesWithTheTokenScanner(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 24).Draw(t, "parts")
		agree(t, []byte(strings.Join(parts, "")))
	})
}

// TestScanAgreesOnWellFormedDocuments: nested valid documents, which the
// random pieces rarely make, agree too.
func TestScanAgreesOnWellFormedDocuments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		agree(t, []byte(genValue(t, 0)))
	})
}

func genValue(t *rapid.T, depth int) string {
	kind := rapid.IntRange(0, 5).Draw(t, "kind")
	if depth > 4 {
		kind %= 3
	}
	switch kind {
	case 0:
		return rapid.SampledFrom([]string{`1`, `-2.5e-3`, `true`, `null`, `0`}).Draw(t, "scalar")
	case 1, 2:
		return `"` + rapid.SampledFrom([]string{"", "ab", "abcde", `\"x`, `\u0041`, "é"}).Draw(t, "s") + `"`
	case 3, 4:
		n := rapid.IntRange(0, 5).Draw(t, "n")
		items := make([]string, n)
		for i := range items {
			items[i] = genValue(t, depth+1)
		}
		return "[" + strings.Join(items, ",") + "]"
	default:
		n := rapid.IntRange(0, 5).Draw(t, "n")
		members := make([]string, n)
		for i := range members {
			key := rapid.SampledFrom([]string{"a", "b", "c", "long key", `\u0061`}).Draw(t, "key")
			members[i] = `"` + key + `": ` + genValue(t, depth+1)
		}
		return "{" + strings.Join(members, ", ") + "}"
	}
}

// FuzzScan: any input, the same code from both scanners.
func FuzzScan(f *testing.F) {
	for _, p := range pieces {
		f.Add([]byte(p))
	}
	f.Add([]byte(`{"a":[1,2,{"b":"c"}],"d":null}`))
	f.Fuzz(func(t *testing.T, doc []byte) { agree(t, doc) })
}

// BenchmarkScan compares the byte scanner with the token scanner on a
// typical write body; "speedup" is how many times faster it is.
func BenchmarkScan(b *testing.B) {
	doc := []byte(`{"agent_id":"ag_0123456789abcdef","contact":"mailto:bench@example.org","message":"round 12","working_on":3,"tags":["a","b",{"x":null}]}`)
	var fast, slow float64
	for range b.N {
		fast += timeIt(func() { Scan(doc, Bounds{}) })
		slow += timeIt(func() { tokenScan(doc, Bounds{}) })
	}
	b.ReportMetric(slow/fast, "speedup")
}

func timeIt(f func()) float64 {
	start := nanotime()
	f()
	return float64(nanotime() - start)
}
