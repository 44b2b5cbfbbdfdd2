package suite

import (
	"encoding/binary"
	"reflect"
	"regexp"
	"strings"
	"sync"
)

// patternSet is one ordered list of step patterns, interned per process
// (internPatterns): every scenario of a protocol registers the same
// compiled patterns (Pattern) in the same order, so they share one set and
// its cache of matches.
type patternSet struct {
	exprs   []*regexp.Regexp
	matches sync.Map // step text -> stepMatch
}

// stepMatch is what a full scan of a pattern list finds for one text.
type stepMatch struct {
	row       int    // index of the first matching pattern; -1 when none
	args      []any  // its capture groups, as strings
	ambiguous string // the matching patterns when more than one matches, as godog lists them
}

// patternSets interns pattern lists, keyed by the list's pattern pointers
// in order. The key is the whole list, not a hash of it, so two lists share
// a set only when they hold the same patterns in the same order; a set
// keeps its patterns alive, so their addresses are never reused while the
// key stands.
var patternSets sync.Map

// internPatterns returns the one set holding exprs in this order.
func internPatterns(exprs []*regexp.Regexp) *patternSet {
	key := make([]byte, 0, 8*len(exprs))
	for _, re := range exprs {
		key = binary.LittleEndian.AppendUint64(key, uint64(reflect.ValueOf(re).Pointer()))
	}
	if s, ok := patternSets.Load(string(key)); ok {
		return s.(*patternSet)
	}
	s, _ := patternSets.LoadOrStore(string(key), &patternSet{exprs: exprs})
	return s.(*patternSet)
}

// match returns the scan of text, computed once per set.
func (s *patternSet) match(text string) stepMatch {
	if m, ok := s.matches.Load(text); ok {
		return m.(stepMatch)
	}
	m := s.scan(text)
	s.matches.Store(text, m)
	return m
}

// scan matches text against every pattern, as godog does in Strict mode:
// the first match in order wins, and two or more matches make the step
// ambiguous.
func (s *patternSet) scan(text string) stepMatch {
	m := stepMatch{row: -1}
	var matching []string
	for i, re := range s.exprs {
		sub := re.FindStringSubmatch(text)
		if sub == nil {
			continue
		}
		matching = append(matching, re.String())
		if m.row < 0 {
			m.row = i
			for _, a := range sub[1:] {
				m.args = append(m.args, a)
			}
		}
	}
	if len(matching) > 1 {
		m.ambiguous = "\n        " + strings.Join(matching, "\n        ")
	}
	return m
}
