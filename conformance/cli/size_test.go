package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPassingRunsJSONReportIsSmall: a passing FORGE run of 40-odd checks
// keeps no transcript of its passes (--transcripts findings, the default),
// so its JSON report stays under 100 KB; --transcripts all keeps them.
func TestAPassingRunsJSONReportIsSmall(t *testing.T) {
	t.Parallel()
	js := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := run("run", "--protocol", "forge", "--seed", "7", "--quiet", "--json", js, "--cases", t.TempDir())
	require.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	var doc struct {
		Results []json.RawMessage `json:"results"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.GreaterOrEqual(t, len(doc.Results), 40, "a run of 40 checks or more")
	assert.Less(t, len(data), 100<<10, "the JSON report of a passing %d-check run", len(doc.Results))
	all := filepath.Join(t.TempDir(), "all.json")
	code, out, errOut = run("run", "--protocol", "forge", "--seed", "7", "--quiet", "--json", all, "--transcripts", "all", "--cases", t.TempDir())
	require.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	full, err := os.ReadFile(all)
	require.NoError(t, err)
	assert.Greater(t, len(full), 2*len(data), "--transcripts all keeps the passes' transcripts")
}
