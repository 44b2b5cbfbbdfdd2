package report

import (
	"context"
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
