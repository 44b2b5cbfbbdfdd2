package specdiff

import (
	"reflect"
	"testing"
)

func TestStatementsSplitSentencesRowsAndItems(t *testing.T) {
	text := "An agent must wait. It then\nretries once.\n\n| `turn` | yes |\n- list item one\n# Heading"
	got := statementsOf(text)
	want := []string{"An agent must wait.", "It then retries once.", "| `turn` | yes |", "- list item one", "# Heading"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestKindsNameTheNormativeSigns(t *testing.T) {
	for text, want := range map[string][]string{
		"Agents must never retry.":                 {"obligation"},
		"POST /v1/matches/{id}/rewind":             {"endpoint"},
		"Over the limit: 429 daily_write_limit":    {"code", "number"},
		"A friendly city with a harbour and views": nil,
	} {
		if got := kindsOf(text); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

func TestInnermostKeepsOnlyTheDeepestPlaces(t *testing.T) {
	got := innermost([]string{"$", "$.a", "$.a.b", "$.c[1]", "$.cd", "doc.md", "doc.md#A", "doc.md#A/B"})
	want := []string{"$.a.b", "$.c[1]", "$.cd", "doc.md#A/B"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
