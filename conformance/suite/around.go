package suite

import (
	"crypto/sha256"
	"sync"

	"github.com/agentgames/conformance/spec"
)

// arounds are the words around a catalogue's short quotes in its source
// contract, worked out once per process: finding them reads the source
// for every rule (spec.Catalogue.AroundQuote), about a tenth of a short
// run's time when every run of a test binary did it again.
type arounds struct {
	cat    *spec.Catalogue
	source []byte
	mu     sync.Mutex
	byRule map[string]string
}

// aroundCache holds one arounds per source contract and catalogue,
// keyed by the source's digest and the catalogue's protocol.
var aroundCache sync.Map

// aroundsOf returns the arounds of cat over source.
func aroundsOf(cat *spec.Catalogue, source []byte) *arounds {
	sum := sha256.Sum256(source)
	key := cat.Protocol + "\x00" + string(sum[:])
	a, _ := aroundCache.LoadOrStore(key, &arounds{cat: cat, source: source, byRule: map[string]string{}})
	return a.(*arounds)
}

// of is the words around r's quote ("" when they are not found).
func (a *arounds) of(r spec.Rule) string {
	key := r.ID + "\x00" + r.Path + "\x00" + r.Quote
	a.mu.Lock()
	defer a.mu.Unlock()
	if v, ok := a.byRule[key]; ok {
		return v
	}
	v := a.cat.AroundQuote(a.source, r)
	a.byRule[key] = v
	return v
}
