package spec_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/spec"
)

var (
	valueAt   = spec.ValueAt
	quoteFits = spec.QuoteFits
)

func source(t *testing.T, cat *spec.Catalogue) json.RawMessage {
	t.Helper()
	raw, err := fixtures.ReadFile(cat.Source)
	require.NoError(t, err, "%s: source %q", cat.Protocol, cat.Source)
	return raw
}

// TestEveryQuoteIsTheSourcesWordsAtItsPath: a rule's quote must stand in
// the source contract exactly where its path points, not just anywhere.
func TestEveryQuoteIsTheSourcesWordsAtItsPath(t *testing.T) {
	for _, p := range spec.Protocols() {
		cat, err := spec.Load(p)
		require.NoError(t, err)
		assert.NoError(t, cat.CheckQuotes(source(t, cat)), p)
	}
}

func TestQuoteCheckRejectsMisplacedQuotes(t *testing.T) {
	doc := json.RawMessage(`{"a":{"b":["first words","second words"]},"n":9}`)
	v, err := valueAt(doc, "$.a.b[1]")
	require.NoError(t, err)
	assert.True(t, quoteFits(v, "second"))
	assert.False(t, quoteFits(v, "first"), "words from elsewhere in the document do not count")
	v, err = valueAt(doc, "$.n")
	require.NoError(t, err)
	assert.True(t, quoteFits(v, "9"))
	for _, bad := range []string{"a.b", "$.a.c", "$.a.b[2]", "$.n.x", "$.a!"} {
		_, err := valueAt(doc, bad)
		assert.Error(t, err, bad)
	}
}

// TestSourcesAreTheSeedsVerbatim compares the embedded copies with the
// published contracts when they lie beside the checkout (locally and in CI).
func TestSourcesAreTheSeedsVerbatim(t *testing.T) {
	for _, p := range spec.Protocols() {
		cat, err := spec.Load(p)
		require.NoError(t, err)
		seed, err := os.ReadFile(filepath.Join("..", "..", "shared", "seeds", cat.Seed))
		if err != nil {
			t.Skipf("seeds not beside the checkout: %v", err)
		}
		assert.Equal(t, string(seed), string(source(t, cat)), "%s: fixtures/%s differs from the seed", p, cat.Source)
	}
}

// TestCitationsMatchTheCatalogue: every rule ID cited in a protocol's
// reference or runner code exists (a stale citation sends a reader to a rule
// that does not exist), and every rule is cited beside the reference code
// that implements it.
func TestCitationsMatchTheCatalogue(t *testing.T) {
	for _, p := range spec.Protocols() {
		cat, err := spec.Load(p)
		require.NoError(t, err)
		prefix := strings.SplitN(cat.Rules[0].ID, "-", 2)[0]
		cite := regexp.MustCompile(`\b` + prefix + `(?:-[A-Z0-9]+)+\b`)
		dir := strings.ReplaceAll(p, "-", "")
		reference := citations(t, cite, filepath.Join("..", "reference", dir))
		runner := citations(t, cite, filepath.Join("..", "conformance", dir))
		for _, cited := range []map[string]string{reference, runner} {
			for id, where := range cited {
				_, ok := cat.Rule(id)
				assert.True(t, ok, "%s cites %s, which the catalogue does not hold", where, id)
			}
		}
		for _, r := range cat.Rules {
			_, ok := reference[r.ID]
			assert.True(t, ok, "%s is cited nowhere in reference/%s", r.ID, dir)
		}
	}
}

// citations maps each rule ID cited in the non-test Go files under root to
// the first place citing it.
func citations(t *testing.T, cite *regexp.Regexp, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		for i, line := range strings.Split(string(src), "\n") {
			for _, id := range cite.FindAllString(line, -1) {
				if _, seen := out[id]; !seen {
					out[id] = fmt.Sprintf("%s:%d", path, i+1)
				}
			}
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, out, "no citations under %s: is the walk looking in the right place?", root)
	return out
}
