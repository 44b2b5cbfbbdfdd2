package spec

import "testing"

// TestAroundShowsTheNeighboursOfAShortQuote: the words around "10" at
// $.chain.seedPositions.last are the object that holds it; a path that does
// not resolve gives nothing.
func TestAroundShowsTheNeighboursOfAShortQuote(t *testing.T) {
	doc := []byte(`{"chain": {"seedPositions": {"first": 1, "last": 10}, "other": [true, false]}}`)
	if got := Around(doc, "$.chain.seedPositions.last"); got != `{"first":1,"last":10}` {
		t.Errorf("around last: %s", got)
	}
	if got := Around(doc, "$.chain.other[1]"); got != `[true,false]` {
		t.Errorf("around other[1]: %s", got)
	}
	if got := Around(doc, "$.chain.missing.x"); got != "" {
		t.Errorf("an unresolved path gives %q", got)
	}
}
