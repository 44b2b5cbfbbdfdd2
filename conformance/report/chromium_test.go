package report

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const chromium = "/usr/bin/chromium"

// TestHTMLRendersInChromium loads the page in a real headless browser and
// checks the DOM it built: the summary table, the matrix rows and the
// escaped script text, with no script element created. Skipped where no
// Chromium is installed.
func TestHTMLRendersInChromium(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no " + chromium)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := WriteFile(path, func(w io.Writer) error { return WriteHTML(w, sampleReport()) }); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+path)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	dom := string(out)
	for _, want := range []string{
		`<table id="summary">`, `<tr id="summary-iyra">`, `<tr id="rule-IYRA-UNTESTED" class="rule r-untested">`,
		`&lt;script&gt;alert("pwned")&lt;/script&gt;`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %q", want)
		}
	}
	if strings.Contains(dom, "<script") {
		t.Error("the browser built a script element from report content")
	}
}

// measuringScript, appended to a copy of the page (the page itself has
// no script), writes where each rule named in the findings summary
// stands in the browser's layout: "ID bottom" lines in <pre id=measure>.
const measuringScript = `<script>
const out = [];
for (const c of document.querySelectorAll('#glance code')) {
  out.push(c.textContent + ' ' + Math.ceil(c.getBoundingClientRect().bottom));
}
const pre = document.createElement('pre');
pre.id = 'measure';
pre.textContent = out.join('\n');
document.body.appendChild(pre);
</script>`

// TestTheFirstScreenNamesEveryFailedRule renders a report with two
// failed rules at 1280x800 in headless Chromium and checks that both
// rule IDs stand inside the first screen.
func TestTheFirstScreenNamesEveryFailedRule(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no " + chromium)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	var page strings.Builder
	if err := WriteHTML(&page, sampleReport()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "measure.html")
	html := strings.Replace(page.String(), "</body>", measuringScript+"</body>", 1)
	if err := os.WriteFile(path, []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,800",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=2000", "--dump-dom", "file://"+path)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	dom := string(out)
	start := strings.Index(dom, `<pre id="measure">`)
	if start < 0 {
		t.Fatalf("the measuring script did not run:\n%s", dom[:min(len(dom), 400)])
	}
	measured := dom[start+len(`<pre id="measure">`):]
	measured = measured[:strings.Index(measured, "</pre>")]
	bottoms := map[string]int{}
	for _, line := range strings.Split(measured, "\n") {
		var id string
		var bottom int
		if _, err := fmt.Sscanf(line, "%s %d", &id, &bottom); err == nil {
			bottoms[id] = bottom
		}
	}
	for _, id := range []string{"IYRA-ID-EXPIRY", "IYRA-SITE-EFFECTS"} {
		b, ok := bottoms[id]
		if !ok {
			t.Errorf("%s is not in the findings summary: %v", id, bottoms)
			continue
		}
		if b <= 0 || b > 800 {
			t.Errorf("%s stands at %dpx, outside the first 800px screen", id, b)
		}
	}
}
