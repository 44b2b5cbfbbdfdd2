package pyyol

import (
	"fmt"
	"slices"
	"strings"
)

// cardDraw is one card_drawn event: its deck, card id (-1: none given)
// and text.
type cardDraw struct {
	deck string
	id   int
	text string
}

// cardDraws are the draws of a match before a view and after it.
type cardDraws struct{ before, after []cardDraw }

// drawsAround splits the match's card_drawn events at turn t's view.
func (m *monoRun) drawsAround(t *monoTurn) cardDraws {
	var d cardDraws
	for j, e := range m.events {
		if e.Type != "card_drawn" {
			continue
		}
		p := payload(e)
		c := cardDraw{id: -1}
		c.deck, _ = p["deck"].(string)
		c.text, _ = p["card"].(string)
		if id, ok := fieldInt(p, "card_id"); ok {
			c.id = id
		}
		if j < t.seen {
			d.before = append(d.before, c)
		} else {
			d.after = append(d.after, c)
		}
	}
	return d
}

// public is the set of card texts drawn before the view.
func (d cardDraws) public() map[string]bool {
	out := map[string]bool{}
	for _, c := range d.before {
		out[c.text] = true
	}
	return out
}

// idOrder finds, under v, a list of three or more numbers under a key
// naming a deck (deck, chance, chest) that the next draws of one deck
// follow by card id, at least one of them a card not drawn before the
// view: the deck's order as ids. path is where v sits.
func (d cardDraws) idOrder(v any, path string) string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if w := d.idOrder(x, path+"."+k); w != "" {
				return w
			}
		}
	case []any:
		if len(v) >= 3 && numbers(v) && namesDeck(path) && d.predicts(v) {
			return fmt.Sprintf("the next %d draws' card ids in order at %s", min(len(v), len(d.after)), path)
		}
		for j, x := range v {
			if w := d.idOrder(x, fmt.Sprintf("%s[%d]", path, j)); w != "" {
				return w
			}
		}
	}
	return ""
}

// namesDeck reports whether a path names a deck.
func namesDeck(path string) bool {
	p := strings.ToLower(path)
	return strings.Contains(p, "deck") || strings.Contains(p, "chance") || strings.Contains(p, "chest")
}

// predicts reports whether the first three or more ids of l are, in
// order, the ids of the next draws of one deck, one of them new.
func (d cardDraws) predicts(l []any) bool {
	seen := map[cardDraw]bool{}
	for _, c := range d.before {
		seen[cardDraw{deck: c.deck, id: c.id}] = true
	}
	for _, deck := range d.decks() {
		var next []cardDraw
		for _, c := range d.after {
			if c.deck == deck && c.id >= 0 {
				next = append(next, c)
			}
		}
		k, fresh := min(len(l), len(next)), false
		if k < 3 {
			continue
		}
		match := true
		for j := range k {
			match = match && fmt.Sprint(l[j]) == fmt.Sprint(next[j].id)
			fresh = fresh || !seen[cardDraw{deck: deck, id: next[j].id}]
		}
		if match && fresh {
			return true
		}
	}
	return false
}

// decks lists the decks the draws after the view came from.
func (d cardDraws) decks() []string {
	var out []string
	for _, c := range d.after {
		if !slices.Contains(out, c.deck) {
			out = append(out, c.deck)
		}
	}
	return out
}
