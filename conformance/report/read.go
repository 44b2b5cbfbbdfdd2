package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// ReadJSON reads back a report WriteJSON wrote, for `conformance merge`:
// the results, harness errors, wrong-target findings, stale baseline
// entries and the selection as they were, and
// each protocol's catalogue from the `rules` and `summary` views (its rules
// in ID order; protocols in the order their results come).
func ReadJSON(r io.Reader) (*verdict.Report, error) {
	var doc jsonDoc
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading a JSON report: %w", err)
	}
	if doc.Tool == "" || doc.Summary == nil {
		return nil, fmt.Errorf("reading a JSON report: not a conformance report (no tool or summary)")
	}
	rep := &verdict.Report{Tool: doc.Tool, Seed: doc.Seed, Embedded: doc.Embedded,
		Duration: time.Duration(doc.DurationMS) * time.Millisecond, Results: doc.Results, Stale: doc.Stale, Shard: doc.Shard,
		NotProtocol: doc.NotProtocol, Selection: doc.Selection}
	if t, err := time.Parse(time.RFC3339Nano, doc.Started); err == nil {
		rep.Started = t
	}
	if len(doc.Errors) > 0 {
		rep.Errors = doc.Errors
	}
	for _, name := range docProtocols(doc) {
		rep.Protocols = append(rep.Protocols, protocolFromDoc(doc, name))
	}
	return rep, nil
}

// docProtocols orders a document's protocols: as their results come, then
// any without results, sorted.
func docProtocols(doc jsonDoc) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range doc.Results {
		if _, ok := doc.Summary[r.Protocol]; ok && !seen[r.Protocol] {
			seen[r.Protocol] = true
			out = append(out, r.Protocol)
		}
	}
	var rest []string
	for name := range doc.Summary {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// protocolFromDoc rebuilds one protocol's entry and catalogue.
func protocolFromDoc(doc jsonDoc, name string) verdict.ProtocolInfo {
	s := doc.Summary[name]
	// The live plan's not-live MUST rules travel too, so a merged report's
	// MUST line and must_not_live say what each shard's did.
	info := verdict.ProtocolInfo{Name: name, Title: s.Title, Target: s.Target, Seed: s.Contract, NotLive: s.MustNotLive}
	var ids []string
	for id, rule := range doc.Rules {
		if rule.Protocol == name && rule.Catalogued {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		r := doc.Rules[id]
		info.Rules = append(info.Rules, verdict.RuleInfo{ID: id, Level: r.Level, Title: r.Title,
			Quote: r.Quote, Path: r.Path, Around: r.Around, Choice: r.Choice})
	}
	return info
}
