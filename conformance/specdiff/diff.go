package specdiff

import (
	"encoding/json"
	"strings"

	"github.com/agentgames/conformance/spec"
)

// Status is what became of one rule's quote in the new contract.
type Status string

// The statuses of a rule; every one but Stands breaks the catalogue.
const (
	Stands  Status = "stands"  // the quote is the new contract's words at the rule's path
	Moved   Status = "moved"   // the quote stands elsewhere (Where lists the places)
	Changed Status = "changed" // the path is still there, the words are not, anywhere
	Gone    Status = "gone"    // neither the path nor the words are there
)

// RuleChange is one rule whose quote no longer stands at its path.
type RuleChange struct {
	ID     string   `json:"id"`
	Level  string   `json:"level"`
	Status Status   `json:"status"`
	Path   string   `json:"path"`
	Quote  string   `json:"quote"`
	Where  []string `json:"where,omitempty"`
	Detail string   `json:"detail,omitempty"`
}

// Report is the whole comparison: the rules the new contract breaks, the
// new fields or sections, and the new normative text no rule quotes.
type Report struct {
	Protocol     string       `json:"protocol"`
	Rules        int          `json:"rules"`
	Broken       []RuleChange `json:"broken"`
	NewFields    []string     `json:"new_fields"`
	Uncatalogued []Statement  `json:"uncatalogued"`
}

// HasBrokenRules reports whether any rule's quote no longer stands at its
// path: the catalogue must change before it can quote the new contract.
func (r *Report) HasBrokenRules() bool { return len(r.Broken) > 0 }

// Compare checks cat against newSource, the new version of the contract
// whose current version is oldSource. Both are JSON or both markdown, as
// the catalogue's source says.
func Compare(cat *spec.Catalogue, oldSource, newSource []byte) (*Report, error) {
	markdown := strings.HasSuffix(cat.Source, ".md")
	oldPs, newPs, err := passagesOf(markdown, oldSource, newSource)
	if err != nil {
		return nil, err
	}
	rep := &Report{Protocol: cat.Protocol, Rules: len(cat.Rules), Broken: []RuleChange{}}
	for _, r := range cat.Rules {
		if ch, broken := checkRule(markdown, r, newSource); broken {
			rep.Broken = append(rep.Broken, ch)
		}
	}
	rep.NewFields = newFields(markdown, oldSource, newSource, oldPs, newPs)
	rep.Uncatalogued = uncatalogued(cat, oldPs, newPs)
	return rep, nil
}

// passagesOf flattens both versions, refusing a new version that does not
// parse as the old one's format.
func passagesOf(markdown bool, oldSource, newSource []byte) (oldPs, newPs []Passage, err error) {
	if markdown {
		return markdownPassages(string(oldSource)), markdownPassages(string(newSource)), nil
	}
	if oldPs, err = jsonPassages(oldSource); err != nil {
		return nil, nil, &FormatError{Which: "current contract", Err: err}
	}
	if !json.Valid(newSource) {
		return nil, nil, &FormatError{Which: "new contract", Err: errNotJSON}
	}
	newPs, err = jsonPassages(newSource)
	if err != nil {
		return nil, nil, &FormatError{Which: "new contract", Err: err}
	}
	return oldPs, newPs, nil
}

// checkRule says whether rule r still stands in src and, if not, what
// became of it.
func checkRule(markdown bool, r spec.Rule, src []byte) (RuleChange, bool) {
	ch := RuleChange{ID: r.ID, Level: string(r.Level), Path: r.Path, Quote: r.Quote}
	pathThere, fits, detail := quoteAt(markdown, r, src)
	if fits {
		return ch, false
	}
	ch.Where = quotePlaces(markdown, r.Quote, src)
	ch.Detail = detail
	switch {
	case len(ch.Where) > 0:
		ch.Status = Moved
	case pathThere:
		ch.Status = Changed
	default:
		ch.Status = Gone
	}
	return ch, true
}

// quoteAt reports whether r's path exists in src and whether its quote
// stands there, as the catalogue's own quote check reads it.
func quoteAt(markdown bool, r spec.Rule, src []byte) (pathThere, fits bool, detail string) {
	if markdown {
		sec, err := spec.SectionAt(string(src), r.Path)
		if err != nil {
			return false, false, err.Error()
		}
		return true, spec.QuoteInSection(sec, r.Quote), ""
	}
	v, err := spec.ValueAt(src, r.Path)
	if err != nil {
		return false, false, err.Error()
	}
	return true, spec.QuoteFits(v, r.Quote), ""
}

// quotePlaces lists the innermost places of src where quote stands.
func quotePlaces(markdown bool, quote string, src []byte) []string {
	var found []string
	if markdown {
		for _, s := range markdownSections(string(src)) {
			if sec, err := spec.SectionAt(string(src), s.path); err == nil && spec.QuoteInSection(sec, quote) {
				found = append(found, s.path)
			}
		}
	} else {
		walkJSON(src, "$", func(path string, raw json.RawMessage, _ bool) {
			if spec.QuoteFits(raw, quote) {
				found = append(found, path)
			}
		})
	}
	return innermost(found)
}

// innermost drops every place that contains another place found.
func innermost(paths []string) []string {
	var out []string
	for _, p := range paths {
		inner := false
		for _, q := range paths {
			if q != p && contains(p, q) {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, p)
		}
	}
	return out
}

// contains reports whether place outer encloses place inner.
func contains(outer, inner string) bool {
	if !strings.HasPrefix(inner, outer) {
		return false
	}
	next := inner[len(outer)]
	return next == '.' || next == '[' || next == '/' || (next == '#' && !strings.Contains(outer, "#"))
}

// newFields lists the object keys (JSON) or headings (markdown) the new
// version has and the current one does not.
func newFields(markdown bool, oldSource, newSource []byte, oldPs, newPs []Passage) []string {
	out := []string{}
	if markdown {
		had := map[string]bool{}
		for _, p := range oldPs {
			had[p.Path] = true
		}
		for _, p := range newPs {
			if !had[p.Path] {
				out = append(out, p.Path)
			}
		}
		return out
	}
	had := jsonFields(oldSource)
	seen := map[string]bool{}
	walkJSON(newSource, "$", func(path string, _ json.RawMessage, _ bool) {
		shape := fieldShape(path)
		if had[shape] || seen[shape] || enclosedByNew(shape, seen) {
			return
		}
		seen[shape] = true
		out = append(out, shape)
	})
	return out
}

// enclosedByNew reports whether shape lies under a field already reported
// as new, which says it all.
func enclosedByNew(shape string, seen map[string]bool) bool {
	for s := range seen {
		if contains(s, shape) {
			return true
		}
	}
	return false
}
