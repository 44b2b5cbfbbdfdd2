package cli

import (
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/verdict"
)

// writeAuditHTML writes the audit as the run report's self-contained page
// (report.WriteHTML): the verdict, the matrix of the contracts' rules for
// agents, and every broken rule with its quote and the requests that broke
// it as the transcript.
func writeAuditHTML(w io.Writer, rep AuditReport) error {
	return report.WriteHTML(w, auditAsReport(rep))
}

// auditAsReport renders an audit as a run report: one check per agent and
// protocol it played, which fails on each rule for agents it broke (its
// offending requests as the transcript) and passes on the rest.
func auditAsReport(rep AuditReport) *verdict.Report {
	out := &verdict.Report{Tool: "conformance serve --audit", Started: rep.Started, Duration: rep.Duration,
		Seed: rep.Seed, Embedded: true, Audit: true}
	seen := map[string][]string{} // protocol -> its rules for agents
	for _, ag := range rep.Agents {
		for _, name := range sortedKeys(ag.Requests) {
			rules, ok := seen[name]
			if !ok {
				info := agentRulesOf(name)
				out.Protocols = append(out.Protocols, info)
				for _, r := range info.Rules {
					rules = append(rules, r.ID)
				}
				seen[name] = rules
			}
			out.Results = append(out.Results, agentResults(ag, name, rules)...)
		}
	}
	return out
}

// agentRulesOf is a protocol's catalogue entry restricted to its rules for
// agents.
func agentRulesOf(name string) verdict.ProtocolInfo {
	info := verdict.ProtocolInfo{Name: name, Target: "agents audited by serve --audit"}
	p, ok := protocols.Lookup(name)
	if !ok {
		return info
	}
	info.Title = p.Title
	cat, err := p.FolderCatalogue()
	if err != nil {
		return info
	}
	info.Seed = cat.Seed
	for _, r := range cat.Rules {
		if r.ForAgents() {
			info.Rules = append(info.Rules, verdict.RuleInfo{ID: r.ID, Level: r.Level, Title: r.Title, Quote: r.Quote, Path: r.Path})
		}
	}
	return info
}

// agentResults is one agent's audit on one protocol: a fail per rule it
// broke and one pass for the rules it kept.
func agentResults(ag AuditAgent, protocol string, rules []string) []verdict.Result {
	feature := "agent " + ag.Agent
	broken := map[string][]AuditFinding{}
	var order []string
	for _, f := range ag.Findings {
		if f.Protocol != protocol {
			continue
		}
		if broken[f.Rule] == nil {
			order = append(order, f.Rule)
		}
		broken[f.Rule] = append(broken[f.Rule], f)
	}
	var out []verdict.Result
	for _, rule := range order {
		fs := broken[rule]
		status := verdict.Fail
		if fs[0].Level != string(verdict.Must) {
			status = verdict.Warn // a SHOULD for agents warns, as in a run
		}
		out = append(out, verdict.Result{Protocol: protocol, Feature: feature, Name: fs[0].Title, Kind: "audit",
			Rules: []string{rule}, Status: status, FailedRule: rule, Stopped: true,
			Expected: fs[0].Quote, Observed: fs[0].Detail,
			Message:    requests(len(fs)) + " broke it",
			Transcript: offending(fs)})
	}
	var kept []string
	for _, r := range rules {
		if broken[r] == nil {
			kept = append(kept, r)
		}
	}
	if len(kept) > 0 {
		out = append(out, verdict.Result{Protocol: protocol, Feature: feature, Name: "the other rules for agents held",
			Kind: "audit", Rules: kept, Status: verdict.Pass})
	}
	return out
}

// offending lists the requests that broke a rule as transcript entries;
// their query and body were redacted when the audit recorded them.
func offending(fs []AuditFinding) []verdict.Exchange {
	out := make([]verdict.Exchange, 0, len(fs))
	for _, f := range fs {
		method, path, _ := strings.Cut(f.Request, " ")
		if f.Query != "" {
			path += "?" + f.Query
		}
		out = append(out, verdict.Exchange{Method: method, URL: path, ReqBody: f.Body, Status: f.Status,
			Note: f.At.UTC().Format(time.RFC3339) + ": " + f.Detail})
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// requests counts requests in words.
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return strconv.Itoa(n) + " requests"
}
