package cli_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// externalRef finds anything a page would load from elsewhere: a script,
// a stylesheet link, an image or frame, a src attribute, a link that
// leaves the page, or a CSS url()/@import.
var externalRef = regexp.MustCompile(`(?i)<script|<link|<img|<iframe|\ssrc=|href="[^#]|url\(|@import`)

// TestAuditPageIsTheRunReportPage: the HTML audit is the run report's own
// self-contained page (verdict, matrix of the rules for agents, findings
// with transcripts), naming each broken rule's ID and quote and the
// request that broke it, with the key never shown, not even in the URL
// that carried it.
func TestAuditPageIsTheRunReportPage(t *testing.T) {
	t.Parallel()
	base, _ := serveAudited(t, 0)
	key := iyraKey(t, base)
	get(t, base+"/api/v5/store/echoes-of-iyra/assignment?api_key="+key, key)
	resp := post(t, base+"/api/v5/store/echoes-of-iyra/sessions", key, "audit-page-0001", `{"ready_to_act":true,"accepted_version_id":"xgv_e3baba90b92558c7b5d8d598"}`)
	var s struct {
		ActionsURL string `json:"actions_url"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	post(t, base+s.ActionsURL, key, "", `{"action":{"type":"investigate","site":"archive"}}`)

	page := get(t, base+"/_audit?format=html", "")
	assert.NotRegexp(t, externalRef, page, "the page loads nothing from elsewhere")
	assert.Equal(t, 1, strings.Count(page, "<style>"), "one inline style")
	for _, want := range []string{
		"conformance serve --audit report", `id="verdict" class="verdict s-fail"`, `id="matrix-iyra"`, // the run report's page
		"IYRA-AGENT-NO-URL-KEY", "never put it in URLs or public messages.", // rule and quote
		"IYRA-AGENT-REVISION-REQUIRED", "GET /store/echoes-of-iyra/assignment?api_key=%5Bredacted%5D", // the offending requests
		`{&#34;action&#34;:{&#34;site&#34;:&#34;archive&#34;,&#34;type&#34;:&#34;investigate&#34;}}`,
	} {
		assert.Contains(t, page, want)
	}
	assert.NotContains(t, page, key, "the key is never shown")
}

// TestCleanAuditPagePasses: an agent that broke nothing gets a passing
// page, its rules for agents all held.
func TestCleanAuditPagePasses(t *testing.T) {
	t.Parallel()
	base, _ := serveAudited(t, 0)
	key := iyraKey(t, base)
	get(t, base+"/api/v5/store/echoes-of-iyra/assignment", key)
	page := get(t, base+"/_audit?format=html", "")
	assert.Contains(t, page, `id="verdict" class="verdict s-pass"`)
	assert.Contains(t, page, "the other rules for agents held")
	assert.NotContains(t, page, key)
}
