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

func TestSpecDiffReportsOneChangedNumberAndOneDroppedListItemExactly(t *testing.T) {
	t.Parallel()
	raw, err := fixtures.ReadFile("forge/contract.json")
	require.NoError(t, err)
	edited := strings.Replace(string(raw), `"nicknameMaxCodePoints": 40`, `"nicknameMaxCodePoints": 32`, 1)
	dropped := `"Use legal probes distinct from every challengeInput to infer the deterministic rule.",`
	require.Contains(t, edited, dropped)
	edited = strings.Replace(edited, dropped, "", 1)
	path := filepath.Join(t.TempDir(), "contract.json")
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o600))

	code, out, _ := run("spec", "diff", "--protocol", "forge", "--format", "json", path)
	assert.Equal(t, 1, code, out)
	var rep struct {
		Broken []struct {
			ID, Status, Path string
		} `json:"broken"`
		Removed      []struct{ Path, Text string } `json:"removed"`
		Reindexed    []struct{ ID, Path, Now string }
		Uncatalogued []any `json:"uncatalogued"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Len(t, rep.Broken, 1, "only the changed number breaks a rule: %s", out)
	assert.Equal(t, "FORGE-NICKNAME-LENGTH", rep.Broken[0].ID)
	assert.Equal(t, "changed", rep.Broken[0].Status, `"40" must not be found inside "409"`)
	require.Len(t, rep.Removed, 1, out)
	assert.Equal(t, "$.workflow[6]", rep.Removed[0].Path)
	assert.Empty(t, rep.Uncatalogued, "the new number is the changed rule's, not new text")
	for _, r := range rep.Reindexed {
		assert.Regexp(t, `^\$\.workflow\[\d+\]$`, r.Now, "only the items after the dropped one shift")
	}
	assert.Len(t, rep.Reindexed, 6, "two rules on workflow[7], one on [9] and three on [10] follow their items")
}

func TestSpecDiffReportsADroppedQuotedItemAsGoneOnce(t *testing.T) {
	t.Parallel()
	item := `"Compute outputs for challengeInputs in their original order and submit once.",`
	path := writeVariant(t, "forge/contract.json", item, "")
	code, out, _ := run("spec", "diff", "--protocol", "forge", path)
	assert.Equal(t, 1, code, out)
	assert.Regexp(t, `BROKEN FORGE-\S+ \(\w+\) gone at \$\.workflow\[7\]`, out)
	assert.Contains(t, out, "the list item at $.workflow[7] was removed")
	assert.NotContains(t, out, " moved at", "later items only shift their index")
	assert.NotContains(t, out, "REMOVED", "the rule's gone entry reports the item")
}

func TestSpecDiffNamesTheFlagAChangedFigureMoves(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "pyyol/docs.md", "Changes take effect within ~10s.", "Changes take effect within ~30s.")
	code, out, _ := run("spec", "diff", "--protocol", "pyyol-gateway", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN PYYOL-REF-STAKES-ERRORS")
	assert.Contains(t, out, "relied on by: --tier-propagation (its default)")
	assert.Contains(t, out, `now reads: "Changes take effect within ~30s."`)
	assert.Contains(t, out, "0 uncatalogued")
}

// TestSpecDiffFoldsAFigureChangedInsideAQuotedObject: IYRA-LIMITS quotes
// the whole limits object, so a changed max_steps is that rule's change
// (with its new reading), not also an uncatalogued "12"; the dropped
// collision rule is IYRA-ALLY-SET gone, and the two items after it only
// shift.
func TestSpecDiffFoldsAFigureChangedInsideAQuotedObject(t *testing.T) {
	t.Parallel()
	raw, err := fixtures.ReadFile("iyra/play.json")
	require.NoError(t, err)
	edited := strings.Replace(string(raw), `"max_steps":9}`, `"max_steps":12}`, 1)
	edited = strings.Replace(edited, `"duplicate set entries do not create extra allies",`, "", 1)
	require.NotEqual(t, string(raw), edited)
	path := filepath.Join(t.TempDir(), "play.json")
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o600))

	code, out, _ := run("spec", "diff", "--protocol", "iyra", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN IYRA-LIMITS (MUST) changed at $.game.gameplay_contract.limits")
	assert.Contains(t, out, `now reads: "{\"max_duration_seconds\":180,\"max_steps\":12}"`)
	assert.Contains(t, out, "BROKEN IYRA-ALLY-SET (MUST) gone at $.game.gameplay_contract.play.collision_or_conflict_rules[2]")
	assert.Contains(t, out, "2 broken rules, 0 new fields or sections, 0 uncatalogued normative statements, 0 removed list items, 2 paths to update")
}

// TestSpecDiffShowsALongQuotedObjectByItsChangedLeaf: PP-RUN-TURN-LIMIT
// quotes "turn_limit":200 inside the long resources object; the new
// reading names the changed leaf, and even a new figure the old contract
// spells elsewhere (100 is trust's init) is the rule's change.
func TestSpecDiffShowsALongQuotedObjectByItsChangedLeaf(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "phantom-press/api.json", `"turn_limit":200`, `"turn_limit":100`)
	code, out, _ := run("spec", "diff", "--protocol", "phantom-press", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN PP-RUN-TURN-LIMIT (MUST) changed at $.resources")
	assert.Contains(t, out, `now reads: "$.resources.turn_limit: 100"`)
	assert.Contains(t, out, "1 broken rules, 0 new fields or sections, 0 uncatalogued")
}

// TestSpecDiffReportsADroppedMarkdownItemAsGone: on the Pyyol docs, one
// figure changed (go_salary 200 -> 250) and one list item dropped from the
// middle of Goofspiel's configurable rules are exactly three broken rules:
// the economy rule changed, with its new reading, and the two rules that
// quote the dropped item gone; nothing uncatalogued.
func TestSpecDiffReportsADroppedMarkdownItemAsGone(t *testing.T) {
	t.Parallel()
	raw, err := fixtures.ReadFile("pyyol/docs.md")
	require.NoError(t, err)
	edited := strings.Replace(string(raw), "go_salary = 200**", "go_salary = 250**", 1)
	edited = strings.Replace(edited, "- **fairness_mode = open** — Prize order is the fixed card order — pure skill, no hidden information.\n", "", 1)
	path := filepath.Join(t.TempDir(), "docs.md")
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o600))

	code, out, _ := run("spec", "diff", "--protocol", "pyyol-push", path)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "BROKEN PYYOL-MONO-CFG-ECONOMY (MUST) changed at games.md#Monopoly/Configurable rules")
	assert.Contains(t, out, "go_salary = 250** — Standard economy.")
	assert.Contains(t, out, "BROKEN PYYOL-GOOF-OPEN (MUST) gone at games.md#Goofspiel/Configurable rules")
	assert.Contains(t, out, "BROKEN PYYOL-REF-OPEN-ORDER (REFERENCE) gone")
	assert.Contains(t, out, "3 broken rules, 0 new fields or sections, 0 uncatalogued")
}

// TestSpecDiffNamesTheRulesBesideAChangedFigureNoRuleQuotes: the share
// exchange catalogue quotes stale_round's "when", not its status, yet the
// SX-STALE check expects that status; a changed 409 is uncatalogued text
// beside SX-STALE, and the report says so.
func TestSpecDiffNamesTheRulesBesideAChangedFigureNoRuleQuotes(t *testing.T) {
	t.Parallel()
	path := writeVariant(t, "share-exchange/manifest.json", `"stale_round": {"status": 409`, `"stale_round": {"status": 410`)
	code, out, _ := run("spec", "diff", "--protocol", "share-exchange", path)
	assert.Equal(t, 0, code, "no rule's quote broke: %s", out)
	assert.Contains(t, out, `UNCATALOGUED $.coalition_formation.share_exchange.response.codes.stale_round.status [code, number]: "410"`)
	assert.Contains(t, out, "    beside: SX-STALE (a check on these may rely on it)")
	assert.NotContains(t, out, "SX-OFFER-STALE", "the offer's stale_round is another object")
}
