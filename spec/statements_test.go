package spec_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

// statements and statement are the format of spec/<p>/statements.json
// (spec.Statements), read here with unknown fields refused.
type (
	statements = spec.Statements
	statement  = spec.Statement
)

func readStatements(t *testing.T, p string) statements {
	t.Helper()
	raw, err := os.ReadFile(p + "/statements.json")
	require.NoError(t, err, "%s: every protocol keeps spec/%s/statements.json", p, p)
	var doc statements
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&doc), p)
	assert.Equal(t, p, doc.Protocol, "%s: statements.json names another protocol", p)
	return doc
}

// TestEveryStatementIsMappedOrAnswered checks every protocol's statement
// list: each statement stands in the seed at its path (its quote, if any,
// is the seed's words there), is listed once, and names catalogued rules
// or says why it stays unchecked; the list is complete (every JSON leaf of
// the seed covered, or every heading of the audited documents, in order);
// and every catalogued rule is reached from a statement or listed outside.
func TestEveryStatementIsMappedOrAnswered(t *testing.T) {
	for _, p := range spec.Protocols() {
		doc := readStatements(t, p)
		cat, err := spec.Load(p)
		require.NoError(t, err)
		seed := source(t, cat)
		markdown := strings.HasSuffix(cat.Source, ".md")
		seen := map[string]bool{}
		reached := map[string]bool{}
		for _, id := range doc.Outside {
			r, ok := cat.Rule(id)
			assert.True(t, ok, "%s: outside names %s, which the catalogue does not hold", p, id)
			assert.True(t, !ok || r.Level == spec.Reference, "%s: %s is outside the statements, but only a REFERENCE choice may stand for no statement of the seed", p, id)
			reached[id] = true
		}
		for _, s := range doc.Statements {
			assert.False(t, seen[s.Key()], "%s: statement %s listed twice", p, s.Key())
			seen[s.Key()] = true
			assert.NoError(t, statementStands(seed, markdown, s), "%s %s", p, s.Key())
			for _, id := range s.Rules {
				_, ok := cat.Rule(id)
				assert.True(t, ok, "%s %s names %s, which the catalogue does not hold", p, s.Key(), id)
				reached[id] = true
			}
			assert.True(t, len(s.Rules) > 0 || s.Unchecked != "", "%s %s: neither a rule nor a reason", p, s.Key())
		}
		if markdown {
			assert.Equal(t, auditedHeadings(t, string(seed), doc.Documents), statementPaths(doc),
				"%s: the statements list every heading of the audited documents, in order (several statements of one heading stand together, each with its id)", p)
		} else {
			for _, leaf := range jsonLeaves(t, seed) {
				assert.True(t, covered(doc, leaf), "%s: seed statement %s is mapped to no rule and no reason", p, leaf)
			}
		}
		for _, r := range cat.Rules {
			assert.True(t, reached[r.ID], "%s: rule %s stands for no statement of the seed (nor is it listed outside)", p, r.ID)
		}
	}
}

// TestRiskyPlatformStatementsHaveRules checks the statement-by-statement
// audits: every risk and side is one of the named values, and at least 95 %
// of the high- and medium-risk platform duties of each audited protocol
// name a catalogued rule (issue 25's bar; whether that rule's check runs
// live is measured by a live run's report). It logs the figure.
func TestRiskyPlatformStatementsHaveRules(t *testing.T) {
	risks := map[string]bool{"": true, "high": true, "medium": true, "low": true, "none": true}
	sides := map[string]bool{"": true, "platform": true, "agent": true, "doc": true}
	for _, p := range spec.Protocols() {
		doc := readStatements(t, p)
		risky, ruled := 0, 0
		for _, s := range doc.Statements {
			assert.True(t, risks[s.Risk], "%s %s: risk %q is not high, medium, low or none", p, s.Key(), s.Risk)
			assert.True(t, sides[s.Side], "%s %s: side %q is not platform, agent or doc", p, s.Key(), s.Side)
			assert.True(t, s.Risk == "" || s.Side != "", "%s %s: a statement audited for risk names its side", p, s.Key())
			if s.Risky() {
				risky++
				if len(s.Rules) > 0 {
					ruled++
				}
			}
		}
		if risky == 0 {
			continue
		}
		t.Logf("%s: %d of %d high- and medium-risk platform statements name a rule (%.0f %%)", p, ruled, risky, 100*float64(ruled)/float64(risky))
		assert.GreaterOrEqual(t, float64(ruled), 0.95*float64(risky), "%s: under 95 %% of the risky platform statements name a rule", p)
	}
}

// statementStands reports whether s's path names something of the seed
// and its quote, if it has one, is the seed's words there.
func statementStands(seed []byte, markdown bool, s statement) error {
	if markdown {
		sec, err := spec.SectionAt(string(seed), s.Path)
		if err == nil && s.Quote != "" && !strings.Contains(squeeze(sec), squeeze(s.Quote)) {
			err = fmt.Errorf("%q is not the seed's words under %s", s.Quote, s.Path)
		}
		return err
	}
	at, err := valueAt(seed, s.Path)
	if err == nil && s.Quote != "" && !statementFits(at, s.Quote) {
		err = fmt.Errorf("%q is not the seed's words at %s", s.Quote, s.Path)
	}
	return err
}

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// statementPaths lists the statements' paths in order, a run of
// statements under one heading counted once: a statement-by-statement
// audit lists each sentence of a section as its own statement.
func statementPaths(doc statements) []string {
	var out []string
	for _, s := range doc.Statements {
		if len(out) > 0 && out[len(out)-1] == s.Path {
			continue
		}
		out = append(out, s.Path)
	}
	return out
}

// auditedHeadings lists every heading of the named documents of a markdown
// corpus as a statement path: a top or second-level heading alone, deeper
// ones under their second-level parent ("games.md#Mafia/Events").
func auditedHeadings(t *testing.T, corpus string, files []string) []string {
	t.Helper()
	require.NotEmpty(t, files, "a markdown seed's statements.json names the documents it audits")
	docs := spec.MarkdownDocuments(corpus)
	var out []string
	for _, f := range files {
		require.Contains(t, docs, f)
		parent := ""
		for _, h := range spec.Headings(docs[f]) {
			if h.Level <= 2 {
				parent = h.Title
				out = append(out, f+"#"+h.Title)
			} else {
				out = append(out, f+"#"+parent+"/"+h.Title)
			}
		}
	}
	return out
}

// jsonLeaves lists the path of every statement of a JSON seed: every
// scalar, and every empty array or object.
func jsonLeaves(t *testing.T, seed []byte) []string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(seed, &v))
	var out []string
	var walk func(any, string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 {
				out = append(out, path)
			}
			for k, c := range x {
				walk(c, path+"."+k)
			}
		case []any:
			if len(x) == 0 {
				out = append(out, path)
			}
			for i, c := range x {
				walk(c, fmt.Sprintf("%s[%d]", path, i))
			}
		default:
			out = append(out, path)
		}
	}
	walk(v, "$")
	return out
}

// covered reports whether some statement's path is leaf or an ancestor of it.
func covered(doc statements, leaf string) bool {
	for _, s := range doc.Statements {
		if leaf == s.Path || strings.HasPrefix(leaf, s.Path+".") || strings.HasPrefix(leaf, s.Path+"[") {
			return true
		}
	}
	return false
}

// statementFits reports whether quote is the seed's words at raw: verbatim
// (quoteFits), or, for an object, a listing of some of its fields, either
// as "key": value pairs or as "keys: a, b, c".
func statementFits(raw json.RawMessage, quote string) bool {
	if quoteFits(raw, quote) {
		return true
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil {
		return false
	}
	if names, ok := strings.CutPrefix(quote, "keys: "); ok {
		for _, k := range strings.Split(names, ", ") {
			if _, has := obj[k]; !has {
				return false
			}
		}
		return true
	}
	var fields map[string]any
	if json.Unmarshal([]byte("{"+quote+"}"), &fields) != nil || len(fields) == 0 {
		return false
	}
	for k, v := range fields {
		if !reflect.DeepEqual(obj[k], v) {
			return false
		}
	}
	return true
}
