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
	// NowReads is, for a changed rule, the new contract's statement that
	// took the quote's place: one change, not a broken rule plus an
	// uncatalogued statement.
	NowReads string `json:"now_reads,omitempty"`
	// ReliedOnBy names the run flags whose defaults stand on this rule's
	// words (suite.Flag.Rules), so a changed figure says what it moves.
	ReliedOnBy []string `json:"relied_on_by,omitempty"`
	// at is the rule's place in the new contract (its path, list indices
	// followed).
	at string
}

// Reindexed is a rule whose quote stands unchanged in a list item that
// moved because an item before it was added or dropped: the catalogue's
// path must follow, but the words did not change.
type Reindexed struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	Now  string `json:"now"`
}

// Report is the whole comparison: the rules the new contract breaks, the
// new fields or sections, and the new normative text no rule quotes.
type Report struct {
	Protocol     string       `json:"protocol"`
	Rules        int          `json:"rules"`
	Broken       []RuleChange `json:"broken"`
	NewFields    []string     `json:"new_fields"`
	Uncatalogued []Statement  `json:"uncatalogued"`
	// Removed are the list items the new contract dropped that no rule
	// quotes (a dropped item a rule quotes is that rule, gone).
	Removed []Passage `json:"removed"`
	// Reindexed are the rules whose list item only changed its index.
	Reindexed []Reindexed `json:"reindexed"`
}

// HasBrokenRules reports whether any rule's quote no longer stands at its
// path, or stands at a list index the catalogue must update: the
// catalogue must change before it can quote the new contract.
func (r *Report) HasBrokenRules() bool { return len(r.Broken) > 0 || len(r.Reindexed) > 0 }

// Compare checks cat against newSource, the new version of the contract
// whose current version is oldSource. Both are JSON or both markdown, as
// the catalogue's source says.
func Compare(cat *spec.Catalogue, oldSource, newSource []byte) (*Report, error) {
	markdown := strings.HasSuffix(cat.Source, ".md")
	oldPs, newPs, err := passagesOf(markdown, oldSource, newSource)
	if err != nil {
		return nil, err
	}
	rep := &Report{Protocol: cat.Protocol, Rules: len(cat.Rules), Broken: []RuleChange{},
		Removed: []Passage{}, Reindexed: []Reindexed{}}
	lists := &listMap{to: map[string]string{}}
	if !markdown {
		lists = alignLists(oldSource, newSource)
	}
	for _, r := range cat.Rules {
		ch, now, broken := checkRule(markdown, r, newSource, lists)
		switch {
		case broken:
			rep.Broken = append(rep.Broken, ch)
		case now != r.Path:
			rep.Reindexed = append(rep.Reindexed, Reindexed{ID: r.ID, Path: r.Path, Now: now})
		}
	}
	rep.Removed = unquotedDrops(lists.dropped, rep.Broken)
	rep.NewFields = newFields(markdown, oldSource, newSource, oldPs, newPs)
	fresh := freshStatements(oldPs, newPs)
	rep.Uncatalogued = foldRewordings(rep.Broken, fresh, uncatalogued(cat, fresh))
	if !markdown {
		rep.Uncatalogued = foldLeafEdits(rep.Broken, rep.Uncatalogued, oldPs, newPs, newSource)
	} else {
		markDropped(rep.Broken)
	}
	return rep, nil
}

// unquotedDrops are the dropped list items that no gone rule reports.
func unquotedDrops(dropped []Passage, broken []RuleChange) []Passage {
	out := []Passage{}
	for _, d := range dropped {
		told := false
		for _, b := range broken {
			told = told || (b.Status == Gone && (b.Path == d.Path || contains(d.Path, b.Path)))
		}
		if !told {
			out = append(out, d)
		}
	}
	return out
}

// foldRewordings attaches to each changed rule the fresh statement, at
// the rule's place, most like its old quote (a JSON leaf's new value is
// its new reading whatever it says), and drops that statement from the
// uncatalogued ones: a reworded sentence is reported once, as the rule it
// breaks.
func foldRewordings(broken []RuleChange, fresh, stmts []Statement) []Statement {
	folded := map[string]bool{}
	for b := range broken {
		if broken[b].Status != Changed {
			continue
		}
		best, bestScore := -1, 0.3
		if strings.HasPrefix(broken[b].at, "$") {
			bestScore = 0
		}
		for i, s := range fresh {
			if !samePlace(s.Path, broken[b].at) || folded[key(s)] {
				continue
			}
			if score := similarity(s.Text, broken[b].Quote); score >= bestScore && (best < 0 || score > similarity(fresh[best].Text, broken[b].Quote)) {
				best = i
			}
		}
		if best >= 0 {
			folded[key(fresh[best])] = true
			broken[b].NowReads = fresh[best].Text
		}
	}
	out := []Statement{}
	for _, s := range stmts {
		if !folded[key(s)] {
			out = append(out, s)
		}
	}
	return out
}

// markDropped says gone, not changed, for a markdown rule whose section
// is still there but holds no sentence or list item like its quote: the
// statement was dropped (a list item taken from the middle of a list), not
// reworded, and a reader looks for a removal, not for new words.
func markDropped(broken []RuleChange) {
	for i := range broken {
		if broken[i].Status == Changed && broken[i].NowReads == "" {
			broken[i].Status = Gone
			broken[i].Detail = "the section is still there; its statement (a sentence or list item) quoting this was removed"
		}
	}
}

// foldLeafEdits attaches to each changed rule whose path is a JSON
// object or list (IYRA-LIMITS quotes {"max_duration_seconds":180,...}) the
// leaves inside it whose old value the quote spells and the new contract
// changed, and drops them from the uncatalogued statements: a changed
// figure inside a quoted object is one change, the rule's, not also new
// text. Its new reading is the value at the rule's path, as the new
// contract spells it.
func foldLeafEdits(broken []RuleChange, stmts []Statement, oldPs, newPs []Passage, newSource []byte) []Statement {
	was := map[string]string{}
	for _, p := range oldPs {
		was[p.Path] = p.Text
	}
	edited := map[string]bool{}
	for b := range broken {
		if broken[b].Status != Changed || broken[b].NowReads != "" {
			continue
		}
		edits := leafEdits(broken[b], was, newPs)
		for _, e := range edits {
			edited[e.Path] = true
		}
		if len(edits) > 0 {
			broken[b].NowReads = containerReading(broken[b].at, edits, newSource)
		}
	}
	out := []Statement{}
	for _, s := range stmts {
		if !edited[s.Path] {
			out = append(out, s)
		}
	}
	return out
}

// leafEdits lists the new leaves inside b's container whose value changed
// from one that b's quote spells (on token boundaries: "9" in
// "max_steps":9, not in 19).
func leafEdits(b RuleChange, was map[string]string, newPs []Passage) []Passage {
	var out []Passage
	for _, p := range newPs {
		old, ok := was[p.Path]
		if ok && old != "" && old != p.Text && contains(b.at, p.Path) && spec.ContainsToken(b.Quote, old) {
			out = append(out, p)
		}
	}
	return out
}

// maxReading is the longest container a report shows whole as a changed
// rule's new reading; a longer one is shown by its changed leaves.
const maxReading = 200

// containerReading is what a changed rule on a container now reads: the
// container as the new contract spells it when it is short, else each
// changed leaf beside its path.
func containerReading(at string, edits []Passage, newSource []byte) string {
	if raw, err := spec.ValueAt(newSource, at); err == nil && len(squeeze(string(raw))) <= maxReading {
		return squeeze(string(raw))
	}
	parts := make([]string, len(edits))
	for i, e := range edits {
		parts[i] = e.Path + ": " + e.Text
	}
	return strings.Join(parts, "; ")
}

// samePlace reports whether a statement at path stands where a rule's
// path points: the same JSON path, or the same markdown document and a
// heading chain that ends with the rule's (a catalogue may name a section
// by its last headings only).
func samePlace(path, rulePath string) bool {
	if path == rulePath {
		return true
	}
	doc, chain, ok := strings.Cut(path, "#")
	rdoc, rchain, rok := strings.Cut(rulePath, "#")
	return ok && rok && doc == rdoc && strings.HasSuffix(chain, "/"+rchain)
}

// key names a statement by its place and words.
func key(s Statement) string { return s.Path + "\x00" + s.Text }

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
// became of it; now is the path its quote stands at in src when it stands
// (r's own path, or the same list item at its new index).
func checkRule(markdown bool, r spec.Rule, src []byte, lists *listMap) (ch RuleChange, now string, broken bool) {
	ch = RuleChange{ID: r.ID, Level: string(r.Level), Path: r.Path, Quote: r.Quote, at: r.Path}
	if !markdown {
		var gone string
		if ch.at, gone = lists.translate(r.Path); gone != "" {
			ch.Status, ch.Detail = Gone, "the list item at "+gone+" was removed"
			return ch, "", true
		}
	}
	moved := r
	moved.Path = ch.at
	pathThere, fits, detail := quoteAt(markdown, moved, src)
	if fits {
		return ch, ch.at, false
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
	return ch, "", true
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
