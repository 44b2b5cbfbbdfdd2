package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// The JUnit document. Field order and attribute names follow the common
// Ant/Surefire schema that CI systems (GitHub, GitLab, Jenkins) read.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Timestamp  string          `xml:"timestamp,attr,omitempty"`
		Properties []junitProperty `xml:"properties>property,omitempty"`
		Cases      []junitCase     `xml:"testcase"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		Skipped   *junitSkipped `xml:"skipped,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
)

// WriteJUnit writes the report as JUnit XML: a testsuite per protocol and a
// testcase per check. A fail is a <failure> typed with its rule ID, a
// harness error an <error>, a skip <skipped>, and a warning a passing case
// whose <system-out> holds it. Run-level harness errors, stale baseline
// entries, wrong targets and protocols of which nothing was checked get
// testsuites of their own so CI shows them.
func WriteJUnit(w io.Writer, r *verdict.Report) error {
	doc := junitSuites{Name: r.Tool}
	for _, name := range protocolNames(r) {
		doc.Suites = append(doc.Suites, junitProtocol(r, name))
	}
	if len(r.Errors) > 0 {
		doc.Suites = append(doc.Suites, junitRunErrors(r))
	}
	if len(r.Stale) > 0 && r.Shard == "" { // a shard's stale entries are provisional
		doc.Suites = append(doc.Suites, junitStale(r))
	}
	if len(r.NotProtocol) > 0 || len(r.NothingChecked()) > 0 {
		doc.Suites = append(doc.Suites, junitTarget(r))
	}
	var total time.Duration
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	for _, res := range r.Results {
		total += res.Duration
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitProtocol builds the testsuite of one protocol.
func junitProtocol(r *verdict.Report, name string) junitSuite {
	p := protocolInfo(r, name)
	s := junitSuite{Name: name, Properties: []junitProperty{
		{Name: "seed", Value: fmt.Sprint(r.Seed)},
		{Name: "target", Value: p.Target},
		{Name: "contract", Value: p.Seed},
	}}
	if !r.Started.IsZero() {
		s.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	var total time.Duration
	for _, res := range resultsOf(r, name) {
		s.Cases = append(s.Cases, junitTestcase(res))
		total += res.Duration
		s.Tests++
		switch res.Status {
		case verdict.Fail:
			s.Failures++
		case verdict.Error:
			s.Errors++
		case verdict.Skip:
			s.Skipped++
		}
	}
	s.Time = seconds(total)
	return s
}

// junitTestcase maps one result to a testcase.
func junitTestcase(res verdict.Result) junitCase {
	c := junitCase{
		Name:      res.Name,
		Classname: res.Protocol + "." + res.Feature,
		Time:      seconds(res.Duration),
	}
	switch res.Status {
	case verdict.Fail:
		c.Failure = &junitProblem{
			Message: oneLine(ruleMessage(res), 500),
			Type:    res.FailedRule,
			Text:    evidence(res),
		}
	case verdict.Error:
		c.Error = &junitProblem{Message: oneLine(res.Message, 500), Type: "harness", Text: evidence(res)}
	case verdict.Skip:
		c.Skipped = &junitSkipped{Message: oneLine(res.Message, 500)}
	case verdict.Warn:
		c.SystemOut = "WARNING " + ruleMessage(res) + "\n" + evidence(res)
	}
	if res.Status != verdict.Warn && len(res.Warnings) > 0 {
		c.SystemOut = "WARNINGS\n" + strings.Join(res.Warnings, "\n") + "\n"
	}
	return c
}

// evidence is the body of a failure or error: expected, observed, message,
// replay data and the transcript, as the text summary shows them.
func evidence(res verdict.Result) string {
	var b strings.Builder
	field(&b, "rule", res.FailedRule)
	field(&b, "expected", res.Expected)
	field(&b, "observed", res.Observed)
	field(&b, "message", res.Message)
	for _, warn := range res.Warnings {
		field(&b, "warning", warn)
	}
	writeReplay(&b, res)
	writeTranscript(&b, res)
	return b.String()
}

// junitRunErrors turns the run's harness errors into error testcases.
func junitRunErrors(r *verdict.Report) junitSuite {
	s := junitSuite{Name: "harness", Time: seconds(0)}
	for i, e := range r.Errors {
		s.Cases = append(s.Cases, junitCase{
			Name:      fmt.Sprintf("harness error %d", i+1),
			Classname: "harness",
			Time:      seconds(0),
			Error:     &junitProblem{Message: oneLine(e, 500), Type: "harness", Text: e},
		})
		s.Tests++
		s.Errors++
	}
	return s
}

// junitStale is one failing testcase per stale --baseline entry: the run
// exits 1 for it, so CI must show why.
func junitStale(r *verdict.Report) junitSuite {
	s := junitSuite{Name: "baseline", Time: seconds(0)}
	for _, e := range r.Stale {
		msg := staleMessage(e)
		s.Cases = append(s.Cases, junitCase{Name: e.Key(), Classname: "baseline", Time: seconds(0),
			Failure: &junitProblem{Message: msg, Type: "stale-baseline", Text: msg}})
		s.Tests++
		s.Failures++
	}
	return s
}

// junitTarget shows why a run proved nothing about its target: a failing
// testcase per wrong target (exit 1) and an error testcase per protocol of
// which nothing was checked (exit 2), so CI that reads only JUnit sees it.
func junitTarget(r *verdict.Report) junitSuite {
	s := junitSuite{Name: "target", Time: seconds(0)}
	for _, e := range r.NotProtocol {
		s.Cases = append(s.Cases, junitCase{Name: "wrong target", Classname: "target", Time: seconds(0),
			Failure: &junitProblem{Message: oneLine(e, 500), Type: "wrong-target", Text: e}})
		s.Tests++
		s.Failures++
	}
	for _, e := range r.NothingChecked() {
		s.Cases = append(s.Cases, junitCase{Name: "nothing checked", Classname: "target", Time: seconds(0),
			Error: &junitProblem{Message: oneLine(e, 500), Type: "nothing-checked", Text: e}})
		s.Tests++
		s.Errors++
	}
	return s
}

// seconds formats a duration the way JUnit readers expect: decimal seconds.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", d.Seconds())
}
