package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

func htmlOf(t *testing.T, r *verdict.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// node is an element of the page with its attributes and text, enough to
// find rows and cells without an HTML parser dependency.
type node struct {
	name     string
	attr     map[string]string
	text     string
	children []*node
}

// parsePage reads the page with encoding/xml in HTML mode. The template
// writes well-formed markup, so a parse error here is a broken page.
func parsePage(t *testing.T, page string) *node {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(page))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	root := &node{name: "#root"}
	stack := []*node{root}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("page does not parse: %v", err)
		}
		top := stack[len(stack)-1]
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, n := range stack[1:] {
				n.text += string(tok)
			}
		}
	}
	if len(stack) != 1 {
		t.Fatalf("unclosed elements: %d", len(stack)-1)
	}
	return root
}

// find returns every element below n that satisfies ok, in document order.
func (n *node) find(ok func(*node) bool) []*node {
	var out []*node
	for _, c := range n.children {
		if ok(c) {
			out = append(out, c)
		}
		out = append(out, c.find(ok)...)
	}
	return out
}

func (n *node) byID(id string) *node {
	if got := n.find(func(c *node) bool { return c.attr["id"] == id }); len(got) == 1 {
		return got[0]
	}
	return nil
}

// cells returns the trimmed text of a row's td elements.
func (n *node) cells() []string {
	var out []string
	for _, c := range n.children {
		if c.name == "td" {
			out = append(out, strings.TrimSpace(c.text))
		}
	}
	return out
}

func TestHTMLSummaryTable(t *testing.T) {
	root := parsePage(t, htmlOf(t, sampleReport()))
	if v := root.byID("verdict"); v == nil || v.text != "FAIL" || v.attr["class"] != "verdict s-fail" {
		t.Fatalf("verdict badge %+v", v)
	}
	if h := root.find(func(n *node) bool { return n.name == "header" }); len(h) != 1 ||
		!strings.Contains(h[0].text, "exit code 1: 2 failed, 4 passed, 1 warning, 1 skipped, 1 error") ||
		!strings.Contains(h[0].text, "seed 42") {
		t.Errorf("header lacks the verdict line or seed")
	}
	want := map[string]string{
		"summary-iyra": "1 2 1 1 0 5 3/5 http://127.0.0.1:1/api/v5",
		"summary-pp":   "3 0 0 0 1 4 2/3 http://127.0.0.1:2/pp",
	}
	for id, w := range want {
		row := root.byID(id)
		if row == nil {
			t.Fatalf("no row %s", id)
		}
		if got := strings.Join(row.cells()[1:], " "); got != w {
			t.Errorf("%s = %q, want %q", id, got, w)
		}
	}
}

func TestHTMLCoverageMatrix(t *testing.T) {
	root := parsePage(t, htmlOf(t, sampleReport()))
	rows := root.find(func(n *node) bool { return n.name == "tr" && strings.HasPrefix(n.attr["id"], "rule-") })
	if len(rows) != 8 {
		t.Fatalf("matrix has %d rule rows, want every catalogued rule (8)", len(rows))
	}
	want := map[string][2]string{ // status badge, number of checks
		"IYRA-ID-EXPIRY": {"FAIL", "2"}, "IYRA-SITE-EFFECTS": {"FAIL", "2"}, "IYRA-OPENAPI": {"WARN", "1"},
		"IYRA-SKIPONLY": {"SKIP", "1"}, "IYRA-UNTESTED": {"UNTESTED", "0"},
		"PP-SESSION-KEY": {"PASS", "1"}, "PP-RATE": {"ERROR", "1"}, "PP-ERRORS": {"PASS", "1"},
	}
	for _, row := range rows {
		id := strings.TrimPrefix(row.attr["id"], "rule-")
		c := row.cells()
		if c[0] != id || c[3] != want[id][0] || c[4] != want[id][1] {
			t.Errorf("row %s = %q, want status %s and %s checks", id, c, want[id][0], want[id][1])
		}
	}
	if c := root.byID("rule-IYRA-ID-EXPIRY").cells(); c[1] != "MUST" || !strings.Contains(c[2], "Expired challenges are rejected") ||
		!strings.Contains(c[2], "a challenge expires after 60 seconds") {
		t.Errorf("rule row lacks level, title or quote: %q", c)
	}
	if !strings.Contains(root.byID("rule-IYRA-OPENAPI").text, "kit's choice: shapes in openapi.yaml") {
		t.Error("REFERENCE rule row lacks the kit's choice")
	}
}

func TestHTMLFindings(t *testing.T) {
	root := parsePage(t, htmlOf(t, sampleReport()))
	arts := root.find(func(n *node) bool { return n.name == "article" })
	if len(arts) != 5 {
		t.Fatalf("%d findings, want 5 (2 fails, 1 error, 1 warning, 1 pass with warnings)", len(arts))
	}
	first := arts[0]
	if first.attr["class"] != "finding fail" {
		t.Errorf("first finding class %q", first.attr["class"])
	}
	details := first.find(func(n *node) bool { return n.name == "details" })
	if len(details) != 1 || !strings.Contains(details[0].text, "POST http://127.0.0.1:1/api/v5/identity/prove") ||
		!strings.Contains(details[0].text, "Authorization: [redacted]") {
		t.Errorf("transcript not in <details>: %+v", details)
	}
	if !strings.Contains(details[0].text, `</script>\x00\x01"}`) {
		t.Error("control characters of a body are not shown as escapes")
	}
	for _, want := range []string{"401", "200", "IYRA-ID-EXPIRY (MUST) Expired challenges are rejected"} {
		if !strings.Contains(first.text, want) {
			t.Errorf("first finding lacks %q", want)
		}
	}
	prop := arts[1].text
	for _, want := range []string{"18446744073709551557", `{"act":"raid","site":1}`, "conformance replay /tmp/cases/iyra-0001.json"} {
		if !strings.Contains(prop, want) {
			t.Errorf("property finding lacks %q", want)
		}
	}
}

func TestHTMLEscapesEverything(t *testing.T) {
	page := htmlOf(t, sampleReport())
	if strings.Contains(page, "<script") {
		t.Fatal("a result's <script> reached the page unescaped")
	}
	if n := strings.Count(page, "&lt;script&gt;"); n < 3 {
		t.Errorf("escaped script appears %d times; want it in name, message and body", n)
	}
	root := parsePage(t, page)
	if got := root.find(func(n *node) bool { return n.name == "script" }); len(got) != 0 {
		t.Errorf("page has %d script elements", len(got))
	}
}

func TestHTMLSelfContained(t *testing.T) {
	page := htmlOf(t, sampleReport())
	root := parsePage(t, page)
	external := root.find(func(n *node) bool {
		return n.name == "link" || n.name == "img" || n.name == "iframe" || n.attr["src"] != "" ||
			(n.attr["href"] != "" && !strings.HasPrefix(n.attr["href"], "#"))
	})
	if len(external) != 0 {
		t.Errorf("page loads external resources: %+v", external[0])
	}
	if strings.Contains(page, "url(") || strings.Contains(page, "@import") {
		t.Error("inline CSS references an external resource")
	}
	if len(root.find(func(n *node) bool { return n.name == "style" })) != 1 {
		t.Error("want one inline <style>")
	}
}

func TestHTMLRunErrors(t *testing.T) {
	r := &verdict.Report{Tool: "conformance", Errors: []string{"iyra: <boom>"}}
	root := parsePage(t, htmlOf(t, r))
	sec := root.byID("harness-errors")
	if sec == nil || !strings.Contains(sec.text, "iyra: <boom>") {
		t.Fatalf("harness errors not shown: %+v", sec)
	}
	if title := root.find(func(n *node) bool { return n.name == "title" }); title[0].text != "conformance report: ERROR" {
		t.Errorf("title %q", title[0].text)
	}
	if v := root.byID("verdict"); v.text != "ERROR" {
		t.Errorf("verdict %q", v.text)
	}
}
