package engine

import (
	"errors"
	"strings"
)

// Answer is one parsed checklist answer.
type Answer struct {
	Question   string     `json:"question"`
	Verdict    Verdict    `json:"verdict"`
	Confidence Confidence `json:"confidence"`
	Sources    []string   `json:"sources"`
}

// ErrAnswerSyntax is returned for an answer that does not follow
// `<qid> <verdict> <confidence> [sources...]`.
var ErrAnswerSyntax = errors.New("answer must be `<設問ID> <真|偽|裏取り不能> <断言|留保> [出典ID...]`")

// verdictWords maps every accepted spelling to its verdict (PP-ANSWER-ALIASES).
var verdictWords = map[string]Verdict{
	"真": True, "偽": False, "裏取り不能": Unverifiable,
	"true": True, "false": False, "unverifiable": Unverifiable,
}

// confidenceWords maps every accepted spelling to its confidence.
var confidenceWords = map[string]Confidence{
	"断言": Assert, "留保": Hedge, "assert": Assert, "hedge": Hedge,
}

// Fields splits an action argument on spaces (ASCII and ideographic), commas
// and semicolons. The seed's client documents ';' as a stand-in for a space
// inside an argument, so it is accepted as one (PP-ANSWER-SEPARATORS).
func Fields(arg string) []string {
	return strings.FieldsFunc(arg, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\r', '\u3000', ',', '、', ';':
			return true
		}
		return false
	})
}

// ParseAnswer parses the answer grammar (PP-ANSWER-GRAMMAR). English aliases
// are matched case-insensitively; sources may be separated by commas or
// spaces and duplicates are dropped.
func ParseAnswer(arg string) (Answer, error) {
	f := Fields(arg)
	if len(f) < 3 {
		return Answer{}, ErrAnswerSyntax
	}
	v, ok := verdictWords[strings.ToLower(f[1])]
	if !ok {
		return Answer{}, ErrAnswerSyntax
	}
	c, ok := confidenceWords[strings.ToLower(f[2])]
	if !ok {
		return Answer{}, ErrAnswerSyntax
	}
	a := Answer{Question: f[0], Verdict: v, Confidence: c, Sources: []string{}}
	seen := map[string]bool{}
	for _, s := range f[3:] {
		if !seen[s] {
			seen[s] = true
			a.Sources = append(a.Sources, s)
		}
	}
	return a, nil
}

// ParseInterview parses `<witnessId> <topicId>` (or `witnessId:topicId`) and
// returns the interview's source ID, "witnessId:topicId".
func ParseInterview(arg string) (witness, topic string, ok bool) {
	f := Fields(strings.Replace(arg, ":", " ", 1))
	if len(f) != 2 {
		return "", "", false
	}
	return f[0], f[1], true
}

// NeedsSource reports whether an answer must cite a source: only an
// assertion of 真 or 偽 does (PP-ANSWER-ASSERT-SOURCES); 裏取り不能 asserted
// (PP-ANSWER-UNVERIFIABLE-NO-SOURCE) and hedges (PP-ANSWER-HEDGE-NO-SOURCE) need none.
func (a Answer) NeedsSource() bool {
	return a.Confidence == Assert && a.Verdict != Unverifiable
}
