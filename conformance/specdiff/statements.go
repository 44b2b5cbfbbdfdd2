package specdiff

import (
	"regexp"
	"strings"

	"github.com/agentgames/conformance/spec"
)

// Statement is one sentence (or table row, or list item) of the new
// contract that the current one does not have, that reads as normative,
// and that no rule quotes.
type Statement struct {
	Path  string   `json:"path"`
	Text  string   `json:"text"`
	Kinds []string `json:"kinds"`
	// Beside names the rules quoted right beside the statement (a sibling
	// field of the same object, or the same markdown section): a changed
	// status no rule quotes is likely one their checks rely on.
	Beside []string `json:"beside,omitempty"`
}

// normativeSigns are what make a sentence a rule rather than prose: the
// words of obligation, numbers, machine codes, endpoints. Each names the
// kind a report shows.
var normativeSigns = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"obligation", regexp.MustCompile(`(?i)\b(must|never|shall|required|requires|always|only|cannot|may not|should|do not|don't|forbidden|rejected|refused)\b`)},
	{"endpoint", regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE)\b\s+/|(^|[\s"'(\x60])/[a-z0-9_{}.-]+/[a-z0-9_{}./-]*|https?://\S+/`)},
	{"code", regexp.MustCompile(`\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b|\b[1-5][0-9][0-9]\b`)},
	{"number", regexp.MustCompile(`(?:^|[^\p{L}_])\d+(?:\.\d+)?`)},
}

// kindsOf names the normative signs text shows; none means prose.
func kindsOf(text string) []string {
	var kinds []string
	for _, s := range normativeSigns {
		if s.re.MatchString(text) {
			kinds = append(kinds, s.kind)
		}
	}
	return kinds
}

// freshStatements lists the statements of the new passages that the old
// passages do not hold, normative or not, each with its kinds.
func freshStatements(oldPs, newPs []Passage) []Statement {
	had := map[string]bool{}
	for _, p := range oldPs {
		for _, s := range statementsOf(p.Text) {
			had[s] = true
		}
	}
	out := []Statement{}
	for _, p := range newPs {
		for _, s := range statementsOf(p.Text) {
			if !had[s] {
				out = append(out, Statement{Path: p.Path, Text: s, Kinds: kindsOf(s)})
			}
		}
	}
	return out
}

// uncatalogued lists the fresh statements that read as normative and
// that no rule's quote stands in.
func uncatalogued(cat *spec.Catalogue, fresh []Statement) []Statement {
	out := []Statement{}
	for _, s := range fresh {
		if len(s.Kinds) > 0 && !quoted(cat, s.Text) {
			s.Beside = besideRules(cat, s.Path)
			out = append(out, s)
		}
	}
	return out
}

// quoted reports whether some rule quotes statement s: its quote stands in
// s, or s (long enough not to match by chance) stands in its quote.
func quoted(cat *spec.Catalogue, s string) bool {
	for _, r := range cat.Rules {
		q := squeeze(r.Quote)
		if spec.ContainsToken(s, q) || (len(s) >= minQuotedLen && spec.ContainsToken(q, s)) {
			return true
		}
	}
	return false
}

// minQuotedLen is the shortest statement that counts as quoted when it
// stands inside a rule's longer quote; a shorter one ("12") would match
// some quote by chance.
const minQuotedLen = 20

// statementsOf splits a passage into its sentences, table rows and list
// items, white space squeezed.
func statementsOf(text string) []string {
	var out []string
	for _, block := range blocksOf(text) {
		out = append(out, sentences(block)...)
	}
	return out
}

// blocksOf groups a passage's lines: prose lines run together into a
// paragraph up to a blank line; a table row, list item, heading or code
// line stands alone.
func blocksOf(text string) []string {
	var out, para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.Join(para, " "))
			para = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			flush()
		case standsAlone(t):
			flush()
			out = append(out, t)
		default:
			para = append(para, t)
		}
	}
	flush()
	return out
}

var listItem = regexp.MustCompile(`^([-*+]|\d+[.)])\s`)

func standsAlone(line string) bool {
	return strings.HasPrefix(line, "|") || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "```") ||
		strings.HasPrefix(line, ">") || listItem.MatchString(line)
}

// sentences splits a block after ., ! or ? followed by white space and a
// capital letter, a quote or a backtick: good enough for contract prose,
// which a report shows whole anyway.
func sentences(block string) []string {
	block = squeeze(block)
	var out []string
	start := 0
	for i := 0; i+2 < len(block); i++ {
		if strings.ContainsRune(".!?", rune(block[i])) && block[i+1] == ' ' && opensSentence(block[i+2]) {
			out = append(out, block[start:i+1])
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(block[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

func opensSentence(c byte) bool { return (c >= 'A' && c <= 'Z') || c == '"' || c == '`' || c == '(' }

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// besideRules lists the rules whose path is the statement's own place or
// a sibling of it: for a JSON leaf, the object or list that holds it and
// its other members; for markdown, the same section.
func besideRules(cat *spec.Catalogue, path string) []string {
	var out []string
	parent := parentOf(path)
	sibling := strings.HasPrefix(path, "$") && parent != "$" // the top level is no one's neighbourhood
	for _, r := range cat.Rules {
		if samePlace(path, r.Path) || (sibling && (parentOf(r.Path) == parent || r.Path == parent)) {
			out = append(out, r.ID)
		}
	}
	return out
}

// parentOf is the path of the container that holds a JSON path's last step.
func parentOf(path string) string {
	steps := pathSteps.FindAllStringIndex(path, -1)
	if len(steps) == 0 {
		return ""
	}
	return path[:steps[len(steps)-1][0]]
}
