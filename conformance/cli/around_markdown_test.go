package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAShortMarkdownQuoteShowsItsTableRow: Pyyol's contract is markdown,
// and PYYOL-MONO-VIEW-SEAT quotes a table cell, "Your seat index.", that
// means something only beside the field it describes. A run's JSON report
// carries the row as the rule's around, and the HTML page shows it by
// the quote.
func TestAShortMarkdownQuoteShowsItsTableRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jsonPath, htmlPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	code, _, stderr := run("run", "--protocol", "pyyol-gateway", "--rule", "PYYOL-MONO-VIEW-SEAT", "--quiet",
		"--json", jsonPath, "--html", htmlPath, "--cases", dir)
	require.Equal(t, 0, code, stderr)
	raw, err := os.ReadFile(jsonPath)
	require.NoError(t, err)
	var doc struct {
		Rules map[string]struct {
			Quote  string `json:"quote"`
			Around string `json:"around"`
		} `json:"rules"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	seat := doc.Rules["PYYOL-MONO-VIEW-SEAT"]
	assert.Equal(t, "Your seat index.", seat.Quote)
	assert.Equal(t, "| `seat` | int | Your seat index. |", seat.Around, "the table row of the quote in fixtures/pyyol/docs.md")
	assert.Contains(t, doc.Rules["PYYOL-MAFIA-REF-SEQ"].Around, "pushes `/event` notifications", "a rule not run still cites its sentence")
	page, err := os.ReadFile(htmlPath)
	require.NoError(t, err)
	assert.Contains(t, string(page), "Your seat index.” at <code>games.md#Monopoly/Turn view</code>, in <code>| `seat` | int | Your seat index. |</code>")
}
