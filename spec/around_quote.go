package spec

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"
)

// aroundLimit bounds the words shown around a short quote, in bytes, so a
// long paragraph cannot fill a report's rule row.
const aroundLimit = 160

// AroundQuote returns the source's words around a rule's quote, for a
// quote too short to mean anything alone: in a markdown source the
// sentence or table row the quote stands in (AroundInMarkdown); in a JSON
// source the sentence of the string value the quote is part of, or, when
// the quote is the whole value, the object that holds it (Around). ""
// when the quote is not found where its path points.
func (c *Catalogue) AroundQuote(source []byte, r Rule) string {
	if c.isMarkdown() {
		return AroundInMarkdown(string(source), r.Path, r.Quote)
	}
	var text string
	if raw, err := ValueAt(source, r.Path); err == nil && json.Unmarshal(raw, &text) == nil {
		if q := squeeze(r.Quote); squeeze(text) != q && ContainsToken(squeeze(text), q) {
			return aroundInProse(squeeze(text), q)
		}
	}
	return Around(source, r.Path)
}

// aroundInProse is the sentence of text in which quote stands, or the
// whole text when the quote runs across sentences or is a sentence
// alone, cut to aroundLimit bytes about the quote.
func aroundInProse(text, quote string) string {
	if s := sentenceHolding(text, quote); s != "" && s != quote {
		text = s
	}
	return window(text, quote, aroundLimit)
}

// AroundInMarkdown returns the sentence, table row, list item or code
// block in which quote stands in the section path names (SectionAt), white space
// squeezed and cut to aroundLimit bytes about the quote. A sentence that
// is the quote itself says no more than the quote, so its whole
// paragraph is given instead. "" when the section or the quote is not
// found.
func AroundInMarkdown(corpus, path, quote string) string {
	sec, err := SectionAt(corpus, path)
	if err != nil {
		return ""
	}
	q := squeeze(quote)
	for _, u := range markdownUnits(sec) {
		if !ContainsToken(u.text, q) {
			continue
		}
		if u.whole {
			return window(u.text, q, aroundLimit)
		}
		return aroundInProse(u.text, q)
	}
	return ""
}

// mdUnit is one piece of a markdown section a reader takes in at once;
// whole marks a table row or code block, read together, never split
// into sentences.
type mdUnit struct {
	text  string
	whole bool
}

// listItem opens a markdown list item: "- ", "* ", "+ " or "1. ".
var listItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+\.)\s`)

// markdownUnits splits a section into what a reader takes in at once,
// white space squeezed: each table row, list item and heading alone; the
// wrapped lines of a paragraph (or of a list item's continuation)
// joined; a fenced code block's lines joined by "; ", since a line of
// code alone (one header of a request) says no more than the quote.
func markdownUnits(section string) []mdUnit {
	var units []mdUnit
	var cur []string
	flush := func(whole bool, sep string) {
		if len(cur) > 0 {
			units = append(units, mdUnit{squeeze(strings.Join(cur, sep)), whole})
			cur = nil
		}
	}
	fenced := false
	for _, line := range strings.Split(section, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush(fenced, "; ")
			fenced = !fenced
		case fenced:
			if trimmed != "" {
				cur = append(cur, trimmed)
			}
		case trimmed == "":
			flush(false, " ")
		case strings.HasPrefix(trimmed, "|") || headingLine.MatchString(line):
			flush(false, " ")
			units = append(units, mdUnit{squeeze(trimmed), strings.HasPrefix(trimmed, "|")})
		case listItem.MatchString(line):
			flush(false, " ")
			cur = append(cur, trimmed)
		default:
			cur = append(cur, trimmed)
		}
	}
	flush(fenced, "; ")
	return units
}

// sentenceEnd is where a sentence of prose ends: a full stop, question
// or exclamation mark before a space (or an ideographic full stop).
var sentenceEnd = regexp.MustCompile(`[.!?] |。`)

// sentenceHolding returns the sentence of a paragraph in which quote
// stands, or "" when the quote runs across sentences.
func sentenceHolding(unit, quote string) string {
	start := 0
	for _, m := range sentenceEnd.FindAllStringIndex(unit, -1) {
		end := m[0] + len(strings.TrimRight(unit[m[0]:m[1]], " "))
		if s := strings.TrimSpace(unit[start:end]); ContainsToken(s, quote) {
			return s
		}
		start = end
	}
	if s := strings.TrimSpace(unit[start:]); ContainsToken(s, quote) {
		return s
	}
	return ""
}

// window cuts text to at most limit bytes, keeping the first place quote
// stands and as much on either side as fits, with "…" where words were
// left out; cuts fall on rune boundaries.
func window(text, quote string, limit int) string {
	if len(text) <= limit {
		return text
	}
	at := strings.Index(text, quote)
	if at < 0 {
		at = 0
	}
	side := (limit - len(quote)) / 2
	if side < 0 {
		side = 0
	}
	from, to := at-side, at+len(quote)+side
	if from < 0 {
		to, from = to-from, 0
	}
	if to > len(text) {
		from, to = max(0, from-(to-len(text))), len(text)
	}
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to--
	}
	out := text[from:to]
	if from > 0 {
		out = "…" + out
	}
	if to < len(text) {
		out += "…"
	}
	return out
}
