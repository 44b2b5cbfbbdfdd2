package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// The test parses JUnit with its own minimal types, so a wrong tag in the
// writer's types cannot cancel out.
type xSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []xSuite `xml:"testsuite"`
}

type xSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
	Props    []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Cases []xCase `xml:"testcase"`
}

type xCase struct {
	Name      string    `xml:"name,attr"`
	Classname string    `xml:"classname,attr"`
	Time      string    `xml:"time,attr"`
	Failure   *xProblem `xml:"failure"`
	Error     *xProblem `xml:"error"`
	Skipped   *xProblem `xml:"skipped"`
	SystemOut string    `xml:"system-out"`
}

type xProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func parseJUnit(t *testing.T, r *verdict.Report) (xSuites, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc xSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, buf.String())
	}
	return doc, buf.String()
}

func TestJUnitCounts(t *testing.T) {
	doc, _ := parseJUnit(t, sampleReport())
	if doc.Tests != 9 || doc.Failures != 2 || doc.Errors != 1 || doc.Skipped != 1 {
		t.Errorf("root counts tests=%d failures=%d errors=%d skipped=%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "iyra" || doc.Suites[1].Name != "pp" {
		t.Fatalf("suites = %+v", doc.Suites)
	}
	iyra, pp := doc.Suites[0], doc.Suites[1]
	if iyra.Tests != 5 || iyra.Failures != 2 || iyra.Errors != 0 || iyra.Skipped != 1 || len(iyra.Cases) != 5 {
		t.Errorf("iyra suite %+v", iyra)
	}
	if pp.Tests != 4 || pp.Failures != 0 || pp.Errors != 1 || pp.Skipped != 0 || len(pp.Cases) != 4 {
		t.Errorf("pp suite %+v", pp)
	}
	if iyra.Time != "2.010" || doc.Time != "2.011" {
		t.Errorf("times: iyra %s, root %s", iyra.Time, doc.Time)
	}
	if len(iyra.Props) != 3 || iyra.Props[0].Name != "seed" || iyra.Props[0].Value != "42" {
		t.Errorf("iyra properties %+v", iyra.Props)
	}
}

func TestJUnitFailure(t *testing.T) {
	doc, _ := parseJUnit(t, sampleReport())
	c := doc.Suites[0].Cases[1]
	if c.Classname != "iyra.identity proof" || c.Name != "rejects an expired challenge "+hostile || c.Time != "0.003" {
		t.Errorf("case identity %+v", c)
	}
	if c.Failure == nil || c.Error != nil || c.Skipped != nil {
		t.Fatalf("want only a failure: %+v", c)
	}
	if c.Failure.Type != "IYRA-ID-EXPIRY" || !strings.HasPrefix(c.Failure.Message, "IYRA-ID-EXPIRY: expected 401") {
		t.Errorf("failure attrs type=%q message=%q", c.Failure.Type, c.Failure.Message)
	}
	for _, want := range []string{"expected:   401", "observed:   200", "POST http://127.0.0.1:1/api/v5/identity/prove -> 200", "more bytes)"} {
		if !strings.Contains(c.Failure.Text, want) {
			t.Errorf("failure text lacks %q", want)
		}
	}
	prop := doc.Suites[0].Cases[4]
	if prop.Failure == nil || prop.Failure.Message != "IYRA-SITE-EFFECTS: site morale not raised" {
		t.Fatalf("property failure %+v", prop.Failure)
	}
	if !strings.Contains(prop.Failure.Text, "seed:       18446744073709551557") ||
		!strings.Contains(prop.Failure.Text, "conformance replay /tmp/cases/iyra-0001.json") {
		t.Errorf("property failure lacks replay data:\n%s", prop.Failure.Text)
	}
}

func TestJUnitErrorSkipWarn(t *testing.T) {
	doc, _ := parseJUnit(t, sampleReport())
	iyra, pp := doc.Suites[0], doc.Suites[1]
	if c := pp.Cases[1]; c.Error == nil || !strings.Contains(c.Error.Message, "connection refused") || c.Failure != nil {
		t.Errorf("error case %+v", c)
	}
	if c := iyra.Cases[3]; c.Skipped == nil || c.Skipped.Message != "skipped: no clock against a live target" {
		t.Errorf("skip case %+v", c)
	}
	warn := iyra.Cases[2]
	if warn.Failure != nil || warn.Error != nil || warn.Skipped != nil {
		t.Errorf("a warning must pass: %+v", warn)
	}
	if !strings.Contains(warn.SystemOut, "WARNING IYRA-OPENAPI: response does not match schema") {
		t.Errorf("warning system-out = %q", warn.SystemOut)
	}
	if c := pp.Cases[2]; !strings.Contains(c.SystemOut, "PP-ERRORS: error body has no code") || c.Failure != nil {
		t.Errorf("pass with warnings %+v", c)
	}
	if c := pp.Cases[0]; c.Failure != nil || c.Error != nil || c.Skipped != nil || c.SystemOut != "" {
		t.Errorf("clean pass carries extras: %+v", c)
	}
}

func TestJUnitRunErrorsAndEscaping(t *testing.T) {
	r := sampleReport()
	r.Errors = []string{`pp: could not start <"reference">`}
	doc, raw := parseJUnit(t, r)
	if len(doc.Suites) != 3 || doc.Suites[2].Name != "harness" || doc.Suites[2].Errors != 1 {
		t.Fatalf("run errors not reported: %+v", doc.Suites)
	}
	if doc.Errors != 2 {
		t.Errorf("root errors = %d, want 2", doc.Errors)
	}
	if got := doc.Suites[2].Cases[0].Error.Message; got != `pp: could not start <"reference">` {
		t.Errorf("round trip lost text: %q", got)
	}
	if strings.Contains(raw, hostile) {
		t.Error("markup reached the XML unescaped")
	}
	if !strings.HasPrefix(raw, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("missing XML header: %.60s", raw)
	}
}
