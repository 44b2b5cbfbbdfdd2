// Package features embeds the Gherkin features, one folder per protocol, and
// parses them so that the catalogue can be matched to the scenarios that
// check each rule.
package features

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"
)

//go:embed */*.feature
var files embed.FS

// FS returns the embedded features, laid out as <protocol>/<name>.feature.
func FS() fs.FS { return files }

// Scenario is one executable example as godog will run it: its pickle tags
// include the tags of its Feature and Rule.
type Scenario struct {
	Protocol string
	File     string
	Feature  string
	Rule     string
	Name     string
	Line     int64
	Tags     []string
}

// HasTag reports whether the scenario carries tag (with or without '@').
func (s Scenario) HasTag(tag string) bool {
	tag = "@" + strings.TrimPrefix(tag, "@")
	for _, t := range s.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// AgentFile is the file of a protocol folder holding the scenarios of its
// rules for agents. They play scripted agents against the reference server
// with the audit on (conformance/agentaudit) and never check a platform, so
// PathsFS and ParseFS, which feed conformance run, leave the file out.
const AgentFile = "agents.feature"

// Paths returns the embedded platform feature files of a protocol, sorted.
func Paths(protocol string) []string { return PathsFS(files, protocol) }

// PathsFS returns the platform feature files of a protocol in fsys, sorted:
// every *.feature but AgentFile.
func PathsFS(fsys fs.FS, protocol string) []string {
	paths, _ := fs.Glob(fsys, protocol+"/*.feature")
	sort.Strings(paths)
	out := paths[:0]
	for _, p := range paths {
		if path.Base(p) != AgentFile {
			out = append(out, p)
		}
	}
	return out
}

// AgentPathsFS returns the protocol folder's AgentFile in fsys, if it has
// one.
func AgentPathsFS(fsys fs.FS, protocol string) []string {
	name := protocol + "/" + AgentFile
	if _, err := fs.Stat(fsys, name); err != nil {
		return nil
	}
	return []string{name}
}

// ParseAgents reads every embedded scenario of a protocol folder's
// AgentFile.
func ParseAgents(protocol string) ([]Scenario, error) { return ParseAgentsFS(files, protocol) }

// ParseAgentsFS reads every scenario of a protocol folder's AgentFile in
// fsys.
func ParseAgentsFS(fsys fs.FS, protocol string) ([]Scenario, error) {
	var out []Scenario
	for _, p := range AgentPathsFS(fsys, protocol) {
		sc, err := parseFile(fsys, protocol, p)
		if err != nil {
			return nil, err
		}
		out = append(out, sc...)
	}
	return out, nil
}

// Parse reads every embedded scenario of a protocol.
func Parse(protocol string) ([]Scenario, error) { return ParseFS(files, protocol) }

// ParseFS reads every platform scenario of a protocol in fsys, expanding outlines into
// one scenario per example row as godog does.
func ParseFS(fsys fs.FS, protocol string) ([]Scenario, error) {
	var out []Scenario
	for _, p := range PathsFS(fsys, protocol) {
		sc, err := parseFile(fsys, protocol, p)
		if err != nil {
			return nil, err
		}
		out = append(out, sc...)
	}
	return out, nil
}

func parseFile(fsys fs.FS, protocol, path string) ([]Scenario, error) {
	raw, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	ids := &messages.Incrementing{}
	doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(raw), ids.NewId)
	if err != nil {
		return nil, fmt.Errorf("features: %s: %w", path, err)
	}
	if doc.Feature == nil {
		return nil, fmt.Errorf("features: %s: no Feature", path)
	}
	ruleOf := ruleNames(doc.Feature)
	var out []Scenario
	for _, p := range gherkin.Pickles(*doc, path, ids.NewId) {
		s := Scenario{Protocol: protocol, File: path, Feature: doc.Feature.Name, Name: p.Name, Rule: ruleOf[p.AstNodeIds[0]]}
		s.Line = lineOf(doc.Feature, p.AstNodeIds[len(p.AstNodeIds)-1])
		for _, t := range p.Tags {
			s.Tags = append(s.Tags, t.Name)
		}
		out = append(out, s)
	}
	return out, nil
}

// ruleNames maps each scenario's AST id to the name of the Rule holding it.
func ruleNames(f *messages.Feature) map[string]string {
	m := map[string]string{}
	for _, c := range f.Children {
		if c.Rule == nil {
			continue
		}
		for _, rc := range c.Rule.Children {
			if rc.Scenario != nil {
				m[rc.Scenario.Id] = c.Rule.Name
			}
		}
	}
	return m
}

// lineOf finds the line of a scenario, or of an outline's example row, by
// its AST id, so every expanded example has a line of its own.
func lineOf(f *messages.Feature, id string) int64 {
	var line int64
	visit := func(s *messages.Scenario) {
		if s == nil {
			return
		}
		if s.Id == id {
			line = s.Location.Line
		}
		for _, ex := range s.Examples {
			for _, row := range ex.TableBody {
				if row.Id == id {
					line = row.Location.Line
				}
			}
		}
	}
	for _, c := range f.Children {
		visit(c.Scenario)
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				visit(rc.Scenario)
			}
		}
	}
	return line
}
