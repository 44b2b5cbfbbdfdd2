package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStatementsNamesEveryAuditedSeed(t *testing.T) {
	code, out, _ := run("statements")
	assert.Equal(t, 0, code)
	for _, folder := range []string{"bounty", "forge", "iyra", "phantom-press", "pyyol", "share-exchange"} {
		assert.Contains(t, out, folder+": ")
	}
}

func TestStatementsRefusesWhatItCannotRead(t *testing.T) {
	code, _, errOut := run("statements", "--protocol", "pyyol-nothing")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown protocol or spec folder "pyyol-nothing"`)
	code, _, errOut = run("statements", "--report", filepath.Join(t.TempDir(), "missing.json"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "missing.json")
	bad := filepath.Join(t.TempDir(), "bad.json")
	assert.NoError(t, os.WriteFile(bad, []byte(`{"results": 3}`), 0o600))
	code, _, errOut = run("statements", "--report", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "bad.json")
	code, _, errOut = run("statements", "--format", "yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--format must be text or json")
}

func TestStatementsAcceptsProtocolNamesForTheirFolder(t *testing.T) {
	code, out, _ := run("statements", "--protocol", "pyyol-gateway,pyyol-push")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "pyyol: ")
	assert.NotContains(t, out, "forge: ")
}
