package pyyol

import (
	"slices"
)

// heldBy lists the squares the agent holds in a view, ascending.
func (m *monoRun) heldBy(v monoView) []int {
	out := []int{}
	for _, h := range m.mine(v).sorted() {
		if h.Owner == m.seat {
			out = append(out, h.Square)
		}
	}
	return out
}

// ints2 reads a JSON array of numbers, sorted.
func ints2(a []any) []int {
	out := []int{}
	for _, v := range a {
		if f, ok := v.(float64); ok {
			out = append(out, int(f))
		}
	}
	slices.Sort(out)
	return out
}
