package suite

import (
	"fmt"
	"strings"
)

// tagExpr is a parsed Cucumber tag expression ("@a and not (@b or @c)").
// The runner selects scenarios itself: godog's own filter only knows the
// older "@a && ~@b,@c" syntax, which it also accepts here.
type tagExpr func(tags map[string]bool) bool

// parseTags parses a tag expression; the empty string matches everything.
func parseTags(s string) (tagExpr, error) {
	toks := tokenize(s)
	if len(toks) == 0 {
		return func(map[string]bool) bool { return true }, nil
	}
	p := &tagParser{toks: toks}
	e, err := p.or()
	if err == nil && p.pos < len(toks) {
		err = fmt.Errorf("unexpected %q", toks[p.pos])
	}
	if err != nil {
		return nil, fmt.Errorf("tag expression %q: %w", s, err)
	}
	return e, nil
}

// tokenize splits an expression, accepting godog's legacy syntax too:
// "~@a" for not, "&&" for and, "," for or.
func tokenize(s string) []string {
	s = strings.NewReplacer("(", " ( ", ")", " ) ", "&&", " and ", ",", " or ", "~@", " not @").Replace(s)
	return strings.Fields(s)
}

type tagParser struct {
	toks []string
	pos  int
}

func (p *tagParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *tagParser) or() (tagExpr, error) {
	return p.binary("or", p.and, func(a, b bool) bool { return a || b })
}

func (p *tagParser) and() (tagExpr, error) {
	return p.binary("and", p.not, func(a, b bool) bool { return a && b })
}

func (p *tagParser) binary(op string, next func() (tagExpr, error), join func(a, b bool) bool) (tagExpr, error) {
	left, err := next()
	for err == nil && p.peek() == op {
		p.pos++
		var right tagExpr
		if right, err = next(); err == nil {
			l, r := left, right
			left = func(t map[string]bool) bool { return join(l(t), r(t)) }
		}
	}
	return left, err
}

func (p *tagParser) not() (tagExpr, error) {
	if p.peek() != "not" {
		return p.atom()
	}
	p.pos++
	e, err := p.not()
	if err != nil {
		return nil, err
	}
	return func(t map[string]bool) bool { return !e(t) }, nil
}

func (p *tagParser) atom() (tagExpr, error) {
	tok := p.peek()
	p.pos++
	switch {
	case tok == "(":
		e, err := p.or()
		if err == nil && p.peek() != ")" {
			err = fmt.Errorf("missing )")
		}
		p.pos++
		return e, err
	case strings.HasPrefix(tok, "@") && len(tok) > 1:
		return func(t map[string]bool) bool { return t[tok] }, nil
	}
	return nil, fmt.Errorf("expected a @tag, 'not' or '(' but found %q", tok)
}

// selection combines --tags and --rule into one godog tag expression.
func selection(tags string, rules []string) string {
	var parts []string
	if strings.TrimSpace(tags) != "" {
		parts = append(parts, "("+tags+")")
	}
	if len(rules) > 0 {
		alts := make([]string, len(rules))
		for i, r := range rules {
			alts[i] = "@" + strings.TrimPrefix(r, "@")
		}
		parts = append(parts, "("+strings.Join(alts, " or ")+")")
	}
	return strings.Join(parts, " and ")
}
