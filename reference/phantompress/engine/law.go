// Package engine is the pure game logic of The Phantom Press: the Law of
// Backing, the answer grammar, settlement, case generation and the run state
// machine. It does no I/O, so the runner's model and the known-answer vectors
// can call the same functions the reference server does.
package engine

// Verdict is the truth value an answer gives a question.
type Verdict string

// The three verdicts, in the paper's own words.
const (
	True         Verdict = "真"
	False        Verdict = "偽"
	Unverifiable Verdict = "裏取り不能"
)

// Confidence is how firmly an answer is given.
type Confidence string

// The two confidences.
const (
	Assert Confidence = "断言"
	Hedge  Confidence = "留保"
)

// Stance is how a source relates to a claim.
type Stance string

// A source either supports a claim or contradicts it (backs the counter-fact).
const (
	Supports    Stance = "supports"
	Contradicts Stance = "contradicts"
)

// Source kinds. Official records are primary; every other kind, testimony
// included, is secondary.
const (
	KindOfficial  = "official"
	KindArticle   = "article"
	KindMemo      = "memo"
	KindLetter    = "letter"
	KindDiary     = "diary"
	KindTestimony = "testimony"
)

// ClaimRef says that a source takes a stance on one claim key.
type ClaimRef struct {
	Claim  string `json:"claim"`
	Stance Stance `json:"stance"`
}

// Source is one piece of evidence as the law sees it: a document or a
// testimony, its kind, its origin (secondaries sharing an origin are one
// source) and the claims it takes a stance on.
type Source struct {
	ID     string     `json:"id"`
	Kind   string     `json:"kind"`
	Origin string     `json:"origin"`
	Claims []ClaimRef `json:"claims"`
}

// IsOfficial reports whether a kind is a primary source, sufficient alone.
// PP-LAW-DOC-KINDS
func IsOfficial(kind string) bool { return kind == KindOfficial }

// IsSecondary reports whether a kind is a secondary source. A testimony
// counts as one secondary source (PP-LAW-TESTIMONY).
func IsSecondary(kind string) bool {
	switch kind {
	case KindArticle, KindMemo, KindLetter, KindDiary, KindTestimony:
		return true
	}
	return false
}

// KnownKind reports whether kind is one of the seed's document kinds or a
// testimony.
func KnownKind(kind string) bool { return IsOfficial(kind) || IsSecondary(kind) }

// stanceOn returns the stance src takes on claim, or "" when it is silent.
func stanceOn(src Source, claim string) Stance {
	for _, c := range src.Claims {
		if c.Claim == claim {
			return c.Stance
		}
	}
	return ""
}

// tally counts, for one stance on one claim, the officials taking it and the
// distinct origins of the secondaries taking it.
func tally(sources []Source, claim string, st Stance) (officials int, origins int) {
	seen := map[string]bool{}
	for _, s := range sources {
		if stanceOn(s, claim) != st {
			continue
		}
		switch {
		case IsOfficial(s.Kind):
			officials++
		case IsSecondary(s.Kind):
			// PP-LAW-INDEPENDENCE: secondaries sharing an origin count once.
			origin := s.Origin
			if origin == "" {
				origin = "source:" + s.ID
			}
			seen[origin] = true
		}
	}
	return officials, len(seen)
}

// backed reports whether a stance on claim meets the standard of the law:
// one official, or two independent secondaries with no official taking the
// opposite stance.
func backed(offFor, secFor, offAgainst int) bool {
	return offFor >= 1 || (secFor >= 2 && offAgainst == 0)
}

// Law applies the Law of Backing to claim over every available source and
// returns the verdict it derives. When officials themselves disagree neither
// side is backed by the standard and the claim is UNVERIFIABLE. When both
// sides meet the seed's standard through secondaries (each backed by two
// independent secondaries, no official either way) the seed names no
// verdict; the kit reads it as UNVERIFIABLE, since neither side is derivable
// without the other being derivable too (PP-LAW-BOTH-BACKED).
// A fabricated claim has no backing of its own and so comes out 裏取り不能 (PP-LAW-FABRICATED).
func Law(sources []Source, claim string) Verdict {
	offSup, secSup := tally(sources, claim, Supports)
	offCon, secCon := tally(sources, claim, Contradicts)
	isTrue := backed(offSup, secSup, offCon)  // PP-LAW-TRUE-OFFICIAL, PP-LAW-TRUE-SECONDARY
	isFalse := backed(offCon, secCon, offSup) // PP-LAW-FALSE
	switch {
	case isTrue && !isFalse:
		return True
	case isFalse && !isTrue:
		return False
	}
	return Unverifiable // PP-LAW-UNVERIFIABLE
}

// Branch names which clause of the law decides claim, for reports and for
// the runner to find an example of each branch.
func Branch(sources []Source, claim string) string {
	offSup, secSup := tally(sources, claim, Supports)
	offCon, secCon := tally(sources, claim, Contradicts)
	switch Law(sources, claim) {
	case True:
		if offSup > 0 {
			return "true-official"
		}
		return "true-secondary"
	case False:
		if offCon > 0 {
			return "false-official"
		}
		return "false-secondary"
	}
	if offSup+offCon == 0 && secSup >= 2 && secCon >= 2 {
		return "unverifiable-both-backed" // PP-LAW-BOTH-BACKED
	}
	if offSup > 0 && offCon > 0 {
		return "unverifiable-official-conflict"
	}
	if secSup+secCon == 0 {
		return "unverifiable-no-source"
	}
	return "unverifiable-insufficient"
}

// Backs reports whether src backs an assertion of v on claim: it must
// support the claim for 真 and contradict it for 偽 (PP-ANSWER-BACKING).
// Nothing backs 裏取り不能, which needs no source.
func Backs(src Source, claim string, v Verdict) bool {
	switch v {
	case True:
		return stanceOn(src, claim) == Supports
	case False:
		return stanceOn(src, claim) == Contradicts
	}
	return false
}
