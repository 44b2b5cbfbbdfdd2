package phantompress

import (
	"fmt"
	"maps"
	"strings"
	"unicode/utf8"

	"github.com/agentgames/conformance/conformance/verdict"
)

// minNewText is how many characters of text, in one string, an accepted read
// or interview must show that the run had not shown before: more than an ID
// and a "read it" phrase add up to, less than any document's text.
const minNewText = 12

// checkNewText checks, whatever the answer's shape, that an accepted read or
// interview showed new text: the document's full text or the testimony
// (PP-READ-TEXT: 資料の全文を読む, 証言を得る). Every string the answer holds
// outside its state and available_actions counts, less every string the run
// showed earlier in the case; one of them must hold minNewText new
// characters.
func (m *Model) checkNewText(action, arg string, tree any, prior []seenBody) error {
	top, ok := tree.(map[string]any)
	if !ok {
		return nil
	}
	v := maps.Clone(top) // the tree is shared: drop the parts not read here from a copy
	delete(v, "state")
	delete(v, "available_actions")
	var known []string
	for _, b := range prior {
		known = append(known, stringsIn(b.v)...)
	}
	fresh := 0
	for _, s := range stringsIn(v) {
		for _, k := range known {
			if utf8.RuneCountInString(k) >= 4 {
				s = strings.ReplaceAll(s, k, "")
			}
		}
		fresh = max(fresh, utf8.RuneCountInString(strings.TrimSpace(s)))
	}
	if fresh < minNewText {
		return verdict.Failf("PP-READ-TEXT", fmt.Sprintf("at least %d characters of text not shown before", minNewText), fresh,
			"%s %q showed no text of its own", action, arg)
	}
	return nil
}

// stringsIn lists every string value inside a decoded JSON value.
func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	}
	return nil
}
