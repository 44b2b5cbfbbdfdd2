package iyra

import "testing"

// TestAnEmptyComparedValueNamesItsField: when the model's ending is still
// empty and the target's is budget_exhausted, the lockstep finding's
// expected value names the empty field instead of reading "expected ,
// observed budget_exhausted"; other values pass unchanged.
func TestAnEmptyComparedValueNamesItsField(t *testing.T) {
	if got := shownValue("ending", ""); got != "empty ending" {
		t.Errorf("an empty ending shows as %q", got)
	}
	if got := shownValue("ending", "budget_exhausted"); got != "budget_exhausted" {
		t.Errorf("a set ending shows as %q", got)
	}
	if got := shownValue("terminal", false); got != false {
		t.Errorf("a bool shows as %v", got)
	}
}
