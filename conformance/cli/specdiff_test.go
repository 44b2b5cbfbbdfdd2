package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/fixtures"
)

// writeVariant writes the embedded source contract with one edit applied
// and returns its path.
func writeVariant(t *testing.T, source, old, replacement string) string {
	t.Helper()
	raw, err := fixtures.ReadFile(source)
	require.NoError(t, err)
	require.Contains(t, string(raw), old, "the edit must find its text")
	path := filepath.Join(t.TempDir(), filepath.Base(source))
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(raw), old, replacement, 1)), 0o600))
	return path
}

func TestSpecDiffOfEachSeedItselfExitsZero(t *testing.T) {
	t.Parallel()
	for p, source := range map[string]string{
		"iyra": "iyra/play.json", "phantom-press": "phantom-press/api.json", "forge": "forge/contract.json",
		"bounty": "bounty/manifest.json", "share-exchange": "share-exchange/manifest.json", "pyyol-gateway": "pyyol/docs.md",
	} {
		code, out, errOut := run("spec", "diff", "--protocol", p, writeVariant(t, source, "", ""))
		assert.Equal(t, 0, code, "%s: %s%s", p, out, errOut)
		assert.Contains(t, out, "0 broken rules, 0 new fields or sections, 0 uncatalogued", p)
	}
}

func TestSpecDiffNamesTheRuleWhoseQuoteWasReworded(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "iyra/play.json", "api_key is disclosed once.", "api_key is shown once.")
	code, out, _ := run("spec", "diff", "--protocol", "iyra", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN IYRA-KEY-ONCE (MUST) changed at $.execution_contract.identity.key_storage")
	assert.Contains(t, out, "1 broken rules")
}

func TestSpecDiffReportsANewEndpointAsUncataloguedText(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "iyra/play.json", `{"role":"PLAY",`,
		`{"role":"PLAY","rewind":{"method":"POST","url":"https://example.test/api/v5/sessions/{session_id}/rewind","rule":"Agents must send the latest revision."},`)
	code, out, _ := run("spec", "diff", "--protocol", "iyra", "--format", "json", path)
	assert.Equal(t, 0, code, "new text alone breaks no rule")
	var rep struct {
		Broken       []any    `json:"broken"`
		NewFields    []string `json:"new_fields"`
		Uncatalogued []struct {
			Path  string   `json:"path"`
			Kinds []string `json:"kinds"`
		} `json:"uncatalogued"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Empty(t, rep.Broken)
	assert.Equal(t, []string{"$.rewind"}, rep.NewFields)
	kinds := map[string][]string{}
	for _, s := range rep.Uncatalogued {
		kinds[s.Path] = s.Kinds
	}
	assert.Contains(t, kinds["$.rewind.url"], "endpoint")
	assert.Contains(t, kinds["$.rewind.rule"], "obligation")
}

func TestSpecDiffReadsMarkdownContracts(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "pyyol/docs.md", "Decide a move. The engine blocks", "Decide a move. The engine waits")
	code, out, _ := run("spec", "diff", "--protocol", "pyyol-push", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN PYYOL-WS-TURN (MUST) changed")

	path = writeVariant(t, "pyyol/docs.md", "\n## Errors", "\n## Rewind\n\n`POST /v1/matches/{id}/rewind` rewinds one turn.\n\n## Errors")
	code, out, _ = run("spec", "diff", "--protocol", "pyyol-gateway", path)
	assert.Equal(t, 0, code, out)
	assert.Regexp(t, `NEW FIELD \S+#.*Rewind`, out)
	assert.Regexp(t, `UNCATALOGUED \S+#.*Rewind \[endpoint\]: "`+"`POST /v1/matches/\\{id\\}/rewind`", out)
}

func TestSpecDiffMovedQuoteSaysWhereItNowStands(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "iyra/play.json", `"key_storage":`, `"key_handling":`)
	code, out, _ := run("spec", "diff", "--protocol", "iyra", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN IYRA-AUTH-NO-URL-KEY (REFERENCE) moved at $.execution_contract.identity.key_storage")
	assert.Contains(t, out, "now at: $.execution_contract.identity.key_handling")
}

func TestSpecDiffUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"spec", "diff", "fixtures.json"},
		{"spec", "diff", "--protocol", "iyra"},
		{"spec", "diff", "--protocol", "nosuch", "x.json"},
		{"spec", "diff", "--protocol", "iyra", "/no/such/file.json"},
		{"spec", "diff", "--protocol", "iyra", "--format", "xml", "x.json"},
		{"spec", "merge"},
	} {
		code, _, errOut := run(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.NotEmpty(t, errOut, "%v", args)
	}
	path := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(path, []byte("{not json"), 0o600))
	code, _, errOut := run("spec", "diff", "--protocol", "iyra", path)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "new contract: not valid JSON")
}
