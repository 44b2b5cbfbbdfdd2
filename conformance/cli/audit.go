package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
)

// withAudit puts the auditor in front of p's server when p has a watcher.
func withAudit(h http.Handler, p *suite.Protocol, a *audit.Auditor) http.Handler {
	watcher, ok := agentaudit.Watchers[p.Name] // the list the agents' scenarios play against
	if a == nil || !ok {
		return h
	}
	return a.Wrap(h, p.Name, p.BasePath, watcher())
}

// AuditReport is the audit of every agent serve saw.
type AuditReport struct {
	Clean  bool         `json:"clean"`
	Agents []AuditAgent `json:"agents"`
	// Seed, Started and Duration say which world serve audited and for
	// how long (the audit has no exit code: it is not a run).
	Seed     uint64        `json:"seed"`
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
}

// AuditAgent is one agent's audit: what it sent and the rules it broke.
type AuditAgent struct {
	Agent    string         `json:"agent"`
	Clean    bool           `json:"clean"`
	Requests map[string]int `json:"requests"`
	Findings []AuditFinding `json:"findings"`
}

// AuditFinding is one broken agent-side rule with its catalogue entry.
type AuditFinding struct {
	Protocol string    `json:"protocol"`
	Rule     string    `json:"rule"`
	Level    string    `json:"level"`
	Title    string    `json:"title"`
	Quote    string    `json:"quote"`
	Request  string    `json:"request"`
	At       time.Time `json:"at"`
	Detail   string    `json:"detail"`
	Status   int       `json:"status"`
	Query    string    `json:"query,omitempty"`
	Body     string    `json:"body,omitempty"`
}

// BuildAuditReport joins the auditor's findings with the catalogues.
func BuildAuditReport(a *audit.Auditor) AuditReport {
	rep := AuditReport{Clean: true, Agents: []AuditAgent{}, Seed: a.Seed(), Started: a.Started(),
		Duration: a.Now().Sub(a.Started())}
	for _, rec := range a.Agents() {
		ag := AuditAgent{Agent: rec.Agent, Clean: len(rec.Findings) == 0, Requests: rec.Requests, Findings: []AuditFinding{}}
		for _, f := range rec.Findings {
			ag.Findings = append(ag.Findings, withCatalogue(f))
		}
		sort.SliceStable(ag.Findings, func(i, j int) bool { return ag.Findings[i].Rule < ag.Findings[j].Rule })
		rep.Clean = rep.Clean && ag.Clean
		rep.Agents = append(rep.Agents, ag)
	}
	return rep
}

func withCatalogue(f audit.Finding) AuditFinding {
	out := AuditFinding{Protocol: f.Protocol, Rule: f.Rule, Level: "MUST", Request: f.Request, At: f.At, Detail: f.Detail,
		Status: f.Status, Query: f.Query, Body: f.Body}
	if p, ok := protocols.Lookup(f.Protocol); ok {
		if cat, err := p.FolderCatalogue(); err == nil {
			if r, ok := cat.Rule(f.Rule); ok {
				out.Level, out.Title, out.Quote = string(r.Level), r.Title, r.Quote
			}
		}
	}
	return out
}

// BrokenRules lists the distinct rules an agent broke.
func (a AuditAgent) BrokenRules() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range a.Findings {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	return out
}

// writeAuditText prints the audit for a console: per agent, each broken
// rule once with its quote, then the requests that broke it.
func writeAuditText(w io.Writer, rep AuditReport) {
	fmt.Fprintf(w, "audit: %d agents (seed %d, %s)\n", len(rep.Agents), rep.Seed, rep.Duration.Round(time.Second))
	for _, ag := range rep.Agents {
		if ag.Clean {
			fmt.Fprintf(w, "%s (%s): clean\n", ag.Agent, requestCounts(ag.Requests))
			continue
		}
		fmt.Fprintf(w, "%s (%s): %d findings, rules broken: %s\n", ag.Agent, requestCounts(ag.Requests), len(ag.Findings),
			strings.Join(ag.BrokenRules(), ", "))
		for _, rule := range ag.BrokenRules() {
			printRuleFindings(w, ag.Findings, rule)
		}
	}
}

// requestCounts says how many requests an agent sent to each protocol, in
// words: "iyra 12 requests, bounty 1 request".
func requestCounts(byProtocol map[string]int) string {
	var parts []string
	for _, p := range sortedKeys(byProtocol) {
		parts = append(parts, p+" "+requests(byProtocol[p]))
	}
	return strings.Join(parts, ", ")
}

// shownPerRule bounds the requests a console audit lists per rule; the
// JSON and HTML audits list them all.
const shownPerRule = 3

func printRuleFindings(w io.Writer, fs []AuditFinding, rule string) {
	n := 0
	for _, f := range fs {
		if f.Rule != rule {
			continue
		}
		if n == 0 {
			fmt.Fprintf(w, "  %s (%s) %s\n    contract: %q\n", f.Rule, f.Level, f.Title, f.Quote)
		}
		if n < shownPerRule {
			fmt.Fprintf(w, "    %s -> %d at %s: %s\n", f.Request, f.Status, f.At.UTC().Format(time.RFC3339), f.Detail)
		}
		n++
	}
	if n > shownPerRule {
		fmt.Fprintf(w, "    ... and %d more\n", n-shownPerRule)
	}
}

// writeAuditJSON writes the audit as indented JSON.
func writeAuditJSON(w io.Writer, rep AuditReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// serveAudit answers GET /_audit: JSON, or ?format=html|text.
func serveAudit(a *audit.Auditor) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rep := BuildAuditReport(a)
		switch r.URL.Query().Get("format") {
		case "html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = writeAuditHTML(w, rep)
		case "text":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			writeAuditText(w, rep)
		default:
			w.Header().Set("Content-Type", "application/json")
			writeAuditJSON(w, rep)
		}
	}
}

// WriteAuditFiles writes audit.json and audit.html into dir and the text
// audit to w: serve --audit's report when it stops.
func WriteAuditFiles(dir string, a *audit.Auditor, w io.Writer) error {
	rep := BuildAuditReport(a)
	writeAuditText(w, rep)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	jf, err := os.Create(filepath.Join(dir, "audit.json"))
	if err != nil {
		return err
	}
	defer jf.Close()
	if err := writeAuditJSON(jf, rep); err != nil {
		return err
	}
	hf, err := os.Create(filepath.Join(dir, "audit.html"))
	if err != nil {
		return err
	}
	defer hf.Close()
	return writeAuditHTML(hf, rep)
}
