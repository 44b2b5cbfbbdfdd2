package specdiff

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func items(t *testing.T, doc string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	if err := json.Unmarshal([]byte(doc), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAlignItemsPairsByContentNotIndex(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           []int
	}{
		{"same", `["a","b","c"]`, `["a","b","c"]`, []int{0, 1, 2}},
		{"drop from the middle", `["a","b","c","d"]`, `["a","c","d"]`, []int{0, -1, 1, 2}},
		{"insert at the front", `["a","b"]`, `["z","a","b"]`, []int{1, 2}},
		{"edit in place", `["a x y","b"]`, `["a x z","b"]`, []int{0, 1}},
		{"drop beside an edited item", `["keep","refuse with 409 when taken","drop this one","end"]`,
			`["keep","refuse with 410 when taken","end"]`, []int{0, 1, -1, 2}},
		{"objects, key order aside", `[{"a":1,"b":2},{"c":3}]`, `[{"c":3}]`, []int{-1, 0}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, alignItems(items(t, c.old), items(t, c.new)), c.name)
	}
}

func TestTranslateFollowsNestedListsAndStopsAtADrop(t *testing.T) {
	oldDoc := `{"caps":[{"path":"/a","rules":["x","y"]},{"path":"/b","rules":["z"]},{"path":"/c","rules":["w","v"]}]}`
	newDoc := `{"caps":[{"path":"/a","rules":["x","y"]},{"path":"/c","rules":["v"]}]}`
	lm := alignLists(json.RawMessage(oldDoc), json.RawMessage(newDoc))
	now, gone := lm.translate("$.caps[2].rules[1]")
	assert.Equal(t, "$.caps[1].rules[0]", now)
	assert.Empty(t, gone)
	_, gone = lm.translate("$.caps[1].path")
	assert.Equal(t, "$.caps[1]", gone)
	_, gone = lm.translate("$.caps[2].rules[0]")
	assert.Equal(t, "$.caps[2].rules[0]", gone)
}
