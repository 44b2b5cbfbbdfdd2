package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheHTMLPageNamesWhatBrokeFirst: the findings summary comes before
// the coverage matrix, names every failed rule with its level and links to
// the finding; the matrix badge of a failed rule links there too.
func TestTheHTMLPageNamesWhatBrokeFirst(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, sampleReport()))
	page := buf.String()
	glance := strings.Index(page, `<section id="at-a-glance">`)
	matrix := strings.Index(page, `<h2>Rule coverage</h2>`)
	findings := strings.Index(page, `<section id="findings">`)
	require.True(t, glance > 0 && glance < findings && findings < matrix, "glance, findings, then the matrix")
	top := page[glance:findings]
	for _, id := range []string{"IYRA-ID-EXPIRY", "IYRA-SITE-EFFECTS"} {
		assert.Regexp(t, `<a href="#finding-\d+"><code>`+id+`</code></a></td><td>MUST</td>`, top, "%s is named at the top with its level", id)
		badge := regexp.MustCompile(`<tr id="rule-` + id + `"[^\n]*<a href="#(finding-\d+)"><span class="badge s-fail">`).FindStringSubmatch(page)
		require.NotNil(t, badge, "the matrix badge of %s links to its finding", id)
		assert.Contains(t, page, `<article class="finding fail" id="`+badge[1]+`">`)
	}
	assert.Contains(t, top, "morale 3")
	assert.Contains(t, top, "morale 2")
}

func TestAQuoteTooShortToMeanAnythingShowsItsPath(t *testing.T) {
	rep := sampleReport()
	rep.Protocols[0].Rules[0].Quote = "10"
	rep.Protocols[0].Rules[0].Around = `{"first":1,"last":10}`
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, rep))
	assert.Contains(t, buf.String(), `“10” at <code>$.identity.challenge</code>, in <code>{&#34;first&#34;:1,&#34;last&#34;:10}</code>`, "a short quote shows its path and the words around it")
	assert.NotContains(t, buf.String(), `“effects apply at once” at`, "a quote that reads alone needs no path")
}

// TestEveryFailBadgeOfTheCheckListLinksToItsFinding: the list of checks
// under the matrix links each FAIL badge to that check's finding, like the
// matrix does, and leaves the badge of a clean pass unlinked.
func TestEveryFailBadgeOfTheCheckListLinksToItsFinding(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, sampleReport()))
	page := buf.String()
	rows := regexp.MustCompile(`<tr><td>[^<]*</td><td>[^<]*</td><td>(?:<a href="#rule-[^"]*">[^<]*</a>(?:, )?)*</td><td>(.*?)</td></tr>`).FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, rows, "the check list has rows")
	fails := 0
	for _, row := range rows {
		if !strings.Contains(row[1], "s-fail") {
			continue
		}
		fails++
		link := regexp.MustCompile(`^<a href="#(finding-\d+)"><span class="badge s-fail">`).FindStringSubmatch(row[1])
		require.NotNil(t, link, "a FAIL badge of the check list links to its finding: %s", row[1])
		assert.Contains(t, page, `id="`+link[1]+`"`)
	}
	assert.GreaterOrEqual(t, fails, 2, "the sample has two failed checks")
	assert.Contains(t, page, `<td>ghost rule</td><td><a href="#rule-PP-GHOST">PP-GHOST</a></td><td><span class="badge s-pass">`, "a clean pass has no finding to link to")
}

// TestTheWordsAroundAShortQuoteSurviveTheJSONReport: merge rebuilds the
// HTML page from the shards' JSON, so the JSON keeps a short quote's
// surrounding words and ReadJSON reads them back.
func TestTheWordsAroundAShortQuoteSurviveTheJSONReport(t *testing.T) {
	rep := sampleReport()
	rep.Protocols[0].Rules[0].Quote = "10"
	rep.Protocols[0].Rules[0].Around = `{"first":1,"last":10}`
	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, rep))
	back, err := ReadJSON(&js)
	require.NoError(t, err)
	var found bool
	for _, p := range back.Protocols {
		for _, r := range p.Rules {
			if r.ID == rep.Protocols[0].Rules[0].ID {
				found = true
				assert.Equal(t, `{"first":1,"last":10}`, r.Around)
			}
		}
	}
	assert.True(t, found, "the rule survives the round trip")
}
