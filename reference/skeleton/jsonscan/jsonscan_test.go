package jsonscan_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/reference/skeleton/jsonscan"
)

// TestScanRefusesAtTheFirstTokenPastABound: every bound and every
// structural defect has its own code; a document within the bounds passes.
func TestScanRefusesAtTheFirstTokenPastABound(t *testing.T) {
	b := jsonscan.Bounds{MaxDepth: 3, MaxItems: 4, MaxString: 8, MaxValues: 20}
	cases := []struct{ name, doc, code string }{
		{"within", `{"a":[1,2,3,4],"b":{"c":"12345678"}}`, ""},
		{"a repeated key", `{"a":1,"b":2,"a":3}`, jsonscan.CodeDuplicateKey},
		{"a repeated key deep", `{"x":[{"k":1,"k":1}]}`, jsonscan.CodeDuplicateKey},
		{"too deep", `[[[[[1]]]]]`, jsonscan.CodeTooDeep},
		{"too many items", `[1,2,3,4,5]`, jsonscan.CodeTooManyItems},
		{"too many members", `{"a":1,"b":2,"c":3,"d":4,"e":5}`, jsonscan.CodeTooManyItems},
		{"a long string", `{"a":"123456789"}`, jsonscan.CodeTooLong},
		{"a long key", `{"123456789":1}`, jsonscan.CodeTooLong},
		{"too many values", `[[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4]]`, jsonscan.CodeTooMany},
		{"two values", `{} {}`, jsonscan.CodeInvalidJSON},
		{"truncated", `{"a":[1,2`, jsonscan.CodeInvalidJSON},
		{"not JSON", `{a:1}`, jsonscan.CodeInvalidJSON},
		{"empty", ``, jsonscan.CodeInvalidJSON},
	}
	for _, c := range cases {
		err := jsonscan.Scan([]byte(c.doc), b)
		if c.code == "" {
			assert.Nil(t, err, c.name)
			continue
		}
		if assert.NotNil(t, err, c.name) {
			assert.Equal(t, c.code, err.Code, c.name)
		}
	}
}

// TestScanStopsEarly: a million-item array past a bound of 4 is refused
// after reading only the start of it (allocations do not grow with it).
func TestScanStopsEarly(t *testing.T) {
	doc := []byte("[" + strings.Repeat("1,", 1_000_000) + "1]")
	allocs := testing.AllocsPerRun(5, func() { jsonscan.Scan(doc, jsonscan.Bounds{MaxItems: 4}) })
	assert.Less(t, allocs, 50.0)
	assert.Equal(t, jsonscan.CodeTooManyItems, jsonscan.Scan(doc, jsonscan.Bounds{MaxItems: 4}).Code)
}
