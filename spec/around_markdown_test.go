package spec_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/spec"
)

// TestAShortMarkdownQuoteShowsItsSentence reads Pyyol's catalogue against
// its source, docs.md: every short quote gets the words around it, and
// for three real ones those are the words beside it in the source (the
// table row of "Your seat index.", the sentence of "order by `seq`", the
// row of "Dice were rolled.").
func TestAShortMarkdownQuoteShowsItsSentence(t *testing.T) {
	cat, err := spec.Load("pyyol")
	require.NoError(t, err)
	source, err := fixtures.ReadFile(cat.Source)
	require.NoError(t, err)
	want := map[string][]string{
		"PYYOL-MONO-VIEW-SEAT":      {"| `seat` | int | Your seat index. |"},
		"PYYOL-MAFIA-REF-SEQ":       {"pushes `/event` notifications", "so you can build memory."},
		"PYYOL-MONO-EV-DICE-ROLLED": {"`dice_rolled`"},
		"PYYOL-STAKES-UNIQUE":       {"Coins must be positive, tier keys unique, and amounts strictly increasing"},
	}
	for _, r := range cat.Rules {
		if len(strings.Fields(r.Quote)) >= 4 {
			continue
		}
		around := cat.AroundQuote(source, r)
		assert.Contains(t, around, squeezed(r.Quote), "%s: the quote stands in its words", r.ID)
		assert.NotEqual(t, squeezed(r.Quote), around, "%s: more than the quote", r.ID)
		assert.LessOrEqual(t, len(around), 170, r.ID)
		for _, w := range want[r.ID] {
			assert.Contains(t, around, w, r.ID)
		}
		delete(want, r.ID)
	}
	assert.Empty(t, want, "each example is a short quote of the catalogue")
}

// TestAroundInMarkdownTakesTheSentenceNotTheParagraph: prose wrapped
// over lines is read as one paragraph, the sentence holding the quote is
// given alone, a sentence that is only the quote gives its paragraph, a
// line of code gives its block, and a quote or section not found gives nothing.
func TestAroundInMarkdownTakesTheSentenceNotTheParagraph(t *testing.T) {
	doc := "<!-- ===== a.md ===== -->\n# A\nFirst sentence here. The limit is\n10 per minute. Last one.\n\nAlone.\nThen more words.\n\n- item with false in it\n- other\n" +
		"```\nX-Key:  k\nX-Sig:  v1=<hex>\n```\n"
	assert.Equal(t, "The limit is 10 per minute.", spec.AroundInMarkdown(doc, "a.md#A", "10"))
	assert.Equal(t, "Alone. Then more words.", spec.AroundInMarkdown(doc, "a.md#A", "Alone."))
	assert.Equal(t, "- item with false in it", spec.AroundInMarkdown(doc, "a.md#A", "false"))
	assert.Equal(t, "X-Key: k; X-Sig: v1=<hex>", spec.AroundInMarkdown(doc, "a.md#A", "X-Sig:  v1=<hex>"), "a code line with its block")
	assert.Empty(t, spec.AroundInMarkdown(doc, "a.md#A", "1"), "1 stands in no token of the section")
	assert.Empty(t, spec.AroundInMarkdown(doc, "a.md#B", "10"))
}

// TestALongSentenceIsCutAroundTheQuote: the words kept are those beside
// the quote, within the bound.
func TestALongSentenceIsCutAroundTheQuote(t *testing.T) {
	long := strings.Repeat("lead words ", 30) + "the value is 42 here " + strings.Repeat("tail words ", 30)
	doc := "<!-- ===== a.md ===== -->\n# A\n" + long + "\n"
	got := spec.AroundInMarkdown(doc, "a.md#A", "42")
	assert.Contains(t, got, "the value is 42 here")
	assert.True(t, strings.HasPrefix(got, "…") && strings.HasSuffix(got, "…"), got)
	assert.LessOrEqual(t, len(got), 170)
}

func squeezed(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestAShortQuoteInsideAJSONStringShowsItsSentence: the bounty manifest
// says "Shamir key shares" inside its long description, so the words
// around it are that sentence, not the start of the document; a quote
// that is a whole value still shows the object holding it.
func TestAShortQuoteInsideAJSONStringShowsItsSentence(t *testing.T) {
	cat, err := spec.Load("bounty")
	require.NoError(t, err)
	source, err := fixtures.ReadFile(cat.Source)
	require.NoError(t, err)
	rules := map[string]spec.Rule{}
	for _, r := range cat.Rules {
		rules[r.ID] = r
	}
	layout := cat.AroundQuote(source, rules["BOUNTY-SHARE-LAYOUT"])
	assert.True(t, strings.HasPrefix(layout, "Solve puzzles to recover Shamir key shares"), layout)
	assert.NotContains(t, layout, "Skill-based cooperative decode contest.", "one sentence, not the whole description")
	assert.Equal(t, spec.Around(source, rules["BOUNTY-PAYOUT-SPLIT"].Path), cat.AroundQuote(source, rules["BOUNTY-PAYOUT-SPLIT"]),
		`"1000" is the whole value: the object that holds it`)
}
