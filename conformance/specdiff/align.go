package specdiff

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// listMap pairs the list items of the current contract with those of the
// new one by content, so that an item dropped from the middle of a list
// is one removal and the items after it, whose indices shifted, are the
// same items at new paths rather than "moved" quotes.
type listMap struct {
	// to maps an item's path in the current contract ($.a[3]) to its path
	// in the new one ($.a[2]); both paths are whole, indices included.
	to map[string]string
	// dropped holds the current contract's items the new one lacks, in
	// document order, with their text.
	dropped []Passage
}

// alignLists pairs the items of every list the two JSON versions share.
func alignLists(oldDoc, newDoc json.RawMessage) *listMap {
	lm := &listMap{to: map[string]string{}}
	lm.align(oldDoc, newDoc, "$", "$")
	return lm
}

// align walks both values in step: the keys both objects have, and the
// items of both lists as alignItems pairs them.
func (lm *listMap) align(oldV, newV json.RawMessage, oldPath, newPath string) {
	if oldObj, newObj, ok := bothObjects(oldV, newV); ok {
		for k, ov := range oldObj {
			if nv, ok := newObj[k]; ok {
				lm.align(ov, nv, oldPath+keyStep(k), newPath+keyStep(k))
			}
		}
		return
	}
	oldArr, newArr, ok := bothArrays(oldV, newV)
	if !ok {
		return
	}
	pairs := alignItems(oldArr, newArr)
	for i, j := range pairs {
		from := fmt.Sprintf("%s[%d]", oldPath, i)
		if j < 0 {
			lm.dropped = append(lm.dropped, Passage{Path: from, Text: itemText(oldArr[i])})
			continue
		}
		to := fmt.Sprintf("%s[%d]", newPath, j)
		lm.to[from] = to
		lm.align(oldArr[i], newArr[j], from, to)
	}
}

// translate follows path (a catalogue path into the current contract)
// into the new one. When an item on the way was dropped, it returns that
// item's path as gone.
func (lm *listMap) translate(path string) (newPath, gone string) {
	oldPrefix, newPrefix := "$", "$"
	for _, step := range pathSteps.FindAllString(strings.TrimPrefix(path, "$"), -1) {
		oldPrefix += step
		if !strings.HasPrefix(step, "[") {
			newPrefix += step
			continue
		}
		if to, ok := lm.to[oldPrefix]; ok {
			newPrefix = to
			continue
		}
		if lm.droppedAt(oldPrefix) {
			return "", oldPrefix
		}
		newPrefix += step
	}
	return newPrefix, ""
}

func (lm *listMap) droppedAt(path string) bool {
	for _, d := range lm.dropped {
		if d.Path == path {
			return true
		}
	}
	return false
}

var pathSteps = regexp.MustCompile(`\.[A-Za-z0-9_]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\]`)

// alignItems pairs old items with new ones: pairs[i] is the new index of
// old item i, or -1 when it was dropped. Equal items are paired first, in
// order (a longest common subsequence); between two such anchors, a run of
// changed items is paired in place when both runs are as long, and
// otherwise each old item goes to the most similar new item left, if any
// is similar enough to be the same item edited.
func alignItems(oldArr, newArr []json.RawMessage) []int {
	oldKeys, newKeys := canonicalAll(oldArr), canonicalAll(newArr)
	pairs := lcsPairs(oldKeys, newKeys)
	prevI, prevJ := -1, -1
	for i := 0; i <= len(oldArr); i++ {
		if i < len(oldArr) && pairs[i] < 0 {
			continue
		}
		nextJ := len(newArr)
		if i < len(oldArr) {
			nextJ = pairs[i]
		}
		pairGap(pairs, oldKeys, newKeys, prevI+1, i, prevJ+1, nextJ)
		prevI, prevJ = i, nextJ
	}
	return pairs
}

// pairGap pairs the unpaired old items [i0, i1) with the new items
// [j0, j1) that lie between the same two anchors.
func pairGap(pairs []int, oldKeys, newKeys []string, i0, i1, j0, j1 int) {
	if i1-i0 == j1-j0 {
		for k := 0; k < i1-i0; k++ {
			pairs[i0+k] = j0 + k
		}
		return
	}
	next := j0
	for i := i0; i < i1; i++ {
		best, bestScore := -1, 0.5
		for j := next; j < j1; j++ {
			if s := similarity(oldKeys[i], newKeys[j]); s >= bestScore {
				best, bestScore = j, s
			}
		}
		if best >= 0 {
			pairs[i], next = best, best+1
		}
	}
}

// lcsPairs pairs equal items along a longest common subsequence.
func lcsPairs(a, b []string) []int {
	n, m := len(a), len(b)
	table := make([][]int, n+1)
	for i := range table {
		table[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				table[i][j] = table[i+1][j+1] + 1
			} else {
				table[i][j] = max(table[i+1][j], table[i][j+1])
			}
		}
	}
	pairs := make([]int, n)
	for i := range pairs {
		pairs[i] = -1
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			pairs[i] = j
			i, j = i+1, j+1
		case table[i+1][j] >= table[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}

// similarity is the share of words two items have in common (Jaccard).
func similarity(a, b string) float64 {
	wa, wb := wordSet(a), wordSet(b)
	if len(wa)+len(wb) == 0 {
		return 1
	}
	common := 0
	for w := range wa {
		if wb[w] {
			common++
		}
	}
	return float64(common) / float64(len(wa)+len(wb)-common)
}

var wordsOf = regexp.MustCompile(`[\p{L}\p{N}_]+`)

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordsOf.FindAllString(strings.ToLower(s), -1) {
		out[w] = true
	}
	return out
}

// canonicalAll spells every item the same way whatever its white space
// and key order, so equal items compare equal.
func canonicalAll(items []json.RawMessage) []string {
	out := make([]string, len(items))
	for i, it := range items {
		var v any
		if json.Unmarshal(it, &v) != nil {
			out[i] = string(it)
			continue
		}
		b, _ := json.Marshal(v)
		out[i] = string(b)
	}
	return out
}

// itemText is what a report shows of a list item: a string's words, any
// other value as compact JSON.
func itemText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func bothObjects(a, b json.RawMessage) (map[string]json.RawMessage, map[string]json.RawMessage, bool) {
	var oa, ob map[string]json.RawMessage
	if !opens(a, '{') || !opens(b, '{') || json.Unmarshal(a, &oa) != nil || json.Unmarshal(b, &ob) != nil {
		return nil, nil, false
	}
	return oa, ob, true
}

func bothArrays(a, b json.RawMessage) ([]json.RawMessage, []json.RawMessage, bool) {
	var aa, ab []json.RawMessage
	if !opens(a, '[') || !opens(b, '[') || json.Unmarshal(a, &aa) != nil || json.Unmarshal(b, &ab) != nil {
		return nil, nil, false
	}
	return aa, ab, true
}

func opens(raw json.RawMessage, c byte) bool {
	t := strings.TrimSpace(string(raw))
	return t != "" && t[0] == c
}
