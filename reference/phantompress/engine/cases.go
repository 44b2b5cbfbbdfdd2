package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// CaseSpec is one row of the seed's per_case table.
type CaseSpec struct {
	CaseNo    int `json:"case_no"`
	AP        int `json:"ap"`
	Documents int `json:"documents"`
	Witnesses int `json:"witnesses"`
	Questions int `json:"questions"`
}

// PerCase is the seed's per_case table (PP-CASE-TABLE).
var PerCase = []CaseSpec{
	{CaseNo: 1, AP: 10, Documents: 5, Witnesses: 2, Questions: 5},
	{CaseNo: 2, AP: 12, Documents: 7, Witnesses: 2, Questions: 6},
	{CaseNo: 3, AP: 14, Documents: 8, Witnesses: 3, Questions: 7},
	{CaseNo: 4, AP: 16, Documents: 10, Witnesses: 3, Questions: 8},
}

// SpecOf returns the table row of case n.
func SpecOf(n int) (CaseSpec, bool) {
	for _, s := range PerCase {
		if s.CaseNo == n {
			return s, true
		}
	}
	return CaseSpec{}, false
}

// Pack is a hand-written case as stored in fixtures/phantom-press/cases.json.
type Pack struct {
	Key       string         `json:"key"`
	CaseNo    int            `json:"case_no"`
	Title     string         `json:"title"`
	Brief     string         `json:"brief"`
	Documents []PackDocument `json:"documents"`
	Witnesses []PackWitness  `json:"witnesses"`
	Questions []PackQuestion `json:"questions"`
}

// PackDocument is a document of a pack; Trap marks a tampered or fabricated
// document and stays hidden until publish.
type PackDocument struct {
	Key    string     `json:"key"`
	Kind   string     `json:"kind"`
	Title  string     `json:"title"`
	Origin string     `json:"origin"`
	Text   string     `json:"text"`
	Claims []ClaimRef `json:"claims"`
	Trap   string     `json:"trap,omitempty"`
}

// PackWitness is a witness of a pack; Type (honest or liar) stays hidden
// until publish.
type PackWitness struct {
	Key    string      `json:"key"`
	Name   string      `json:"name"`
	Type   string      `json:"type"`
	Topics []PackTopic `json:"topics"`
}

// PackTopic is one topic a witness can be interviewed on.
type PackTopic struct {
	Key    string     `json:"key"`
	Title  string     `json:"title"`
	Origin string     `json:"origin"`
	Text   string     `json:"text"`
	Claims []ClaimRef `json:"claims"`
}

// PackQuestion is a checklist item with the verdict its author expects the
// law to derive and the branch deciding it (checked by tests).
type PackQuestion struct {
	Claim  string  `json:"claim"`
	Text   string  `json:"text"`
	Expect Verdict `json:"expect"`
	Branch string  `json:"branch"`
}

// Packs is the fixture file.
type Packs struct {
	Comment string `json:"comment"`
	Packs   []Pack `json:"packs"`
}

// ParsePacks decodes and checks a pack file: each pack must have exactly the
// counts of its case's per_case row.
func ParsePacks(raw []byte) ([]Pack, error) {
	var p Packs
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("case packs: %w", err)
	}
	for _, pk := range p.Packs {
		if err := pk.check(); err != nil {
			return nil, err
		}
	}
	for _, s := range PerCase {
		if len(packsFor(p.Packs, s.CaseNo)) == 0 {
			return nil, fmt.Errorf("case packs: none for case %d", s.CaseNo)
		}
	}
	return p.Packs, nil
}

func (p Pack) check() error {
	s, ok := SpecOf(p.CaseNo)
	switch {
	case !ok:
		return fmt.Errorf("pack %s: no case %d in the per_case table", p.Key, p.CaseNo)
	case len(p.Documents) != s.Documents || len(p.Witnesses) != s.Witnesses || len(p.Questions) != s.Questions:
		return fmt.Errorf("pack %s: has %d documents, %d witnesses, %d questions; case %d needs %d, %d, %d",
			p.Key, len(p.Documents), len(p.Witnesses), len(p.Questions), p.CaseNo, s.Documents, s.Witnesses, s.Questions)
	}
	for _, d := range p.Documents {
		if !KnownKind(d.Kind) || d.Kind == KindTestimony {
			return fmt.Errorf("pack %s: document %s has unknown kind %q", p.Key, d.Key, d.Kind)
		}
	}
	return nil
}

func packsFor(packs []Pack, caseNo int) []Pack {
	var out []Pack
	for _, p := range packs {
		if p.CaseNo == caseNo {
			out = append(out, p)
		}
	}
	return out
}

// Document is a document as an agent reads it: the structure the law needs
// (kind, origin, claims) beside the Japanese text (PP-DOC-FORMAT).
type Document struct {
	ID     string     `json:"id"`
	Kind   string     `json:"kind"`
	Title  string     `json:"title"`
	Origin string     `json:"origin"`
	Text   string     `json:"text"`
	Claims []ClaimRef `json:"claims"`
}

// Source returns the document as the law sees it.
func (d Document) Source() Source {
	return Source{ID: d.ID, Kind: d.Kind, Origin: d.Origin, Claims: d.Claims}
}

// Testimony is what one interview yields; its source ID is witness:topic.
type Testimony struct {
	Source  string     `json:"source"`
	Witness string     `json:"witness"`
	Topic   string     `json:"topic"`
	Name    string     `json:"name"`
	Kind    string     `json:"kind"`
	Origin  string     `json:"origin"`
	Text    string     `json:"text"`
	Claims  []ClaimRef `json:"claims"`
}

// AsSource returns the testimony as the law sees it: one secondary source.
func (t Testimony) AsSource() Source {
	return Source{ID: t.Source, Kind: KindTestimony, Origin: t.Origin, Claims: t.Claims}
}

// Topic is a witness topic with its hidden testimony.
type Topic struct {
	ID        string
	Title     string
	Testimony Testimony
}

// Witness is a witness of a generated case; Type is hidden until publish.
type Witness struct {
	ID     string
	Name   string
	Type   string
	Topics []Topic
}

// Question is a checklist item of a generated case.
type Question struct {
	ID    string `json:"id"`
	Claim string `json:"claim"`
	Text  string `json:"text"`
}

// Case is one generated case: public material plus the hidden truth.
type Case struct {
	No        int
	Pack      string
	Title     string
	Brief     string
	AP        int
	Documents []Document
	Witnesses []Witness
	Questions []Question
	// Traps maps document IDs to "tampered" or "fabricated" (hidden).
	Traps map[string]string
}

// Sources lists every document and testimony of the case: the available
// material the law is applied to.
func (c *Case) Sources() []Source {
	var out []Source
	for _, d := range c.Documents {
		out = append(out, d.Source())
	}
	for _, w := range c.Witnesses {
		for _, t := range w.Topics {
			out = append(out, t.Testimony.AsSource())
		}
	}
	return out
}

// Truth derives every question's correct verdict from the case's material
// by the Law of Backing.
func (c *Case) Truth() map[string]Verdict {
	src := c.Sources()
	out := map[string]Verdict{}
	for _, q := range c.Questions {
		out[q.ID] = Law(src, q.Claim)
	}
	return out
}

// Generate builds the four cases of a run from packs: for each case number
// it picks a pack and shuffles the order (and so the IDs) of its documents,
// witnesses, topics, questions and claim keys. The same rng state gives the
// same run (PP-RUN-SEED-REPLAY).
func Generate(packs []Pack, rng *rand.Rand) ([]*Case, error) {
	var out []*Case
	for _, s := range PerCase {
		cands := packsFor(packs, s.CaseNo)
		if len(cands) == 0 {
			return nil, fmt.Errorf("no pack for case %d", s.CaseNo)
		}
		out = append(out, build(cands[rng.IntN(len(cands))], s, rng))
	}
	return out, nil
}

// build turns a pack into a case with shuffled IDs.
func build(p Pack, s CaseSpec, rng *rand.Rand) *Case {
	c := &Case{No: s.CaseNo, Pack: p.Key, Title: p.Title, Brief: p.Brief, AP: s.AP, Traps: map[string]string{}}
	claims := claimNames(p, rng)
	for i, j := range rng.Perm(len(p.Documents)) {
		d := p.Documents[j]
		id := "d" + strconv.Itoa(i+1)
		c.Documents = append(c.Documents, Document{ID: id, Kind: d.Kind, Title: d.Title, Origin: d.Origin,
			Text: d.Text, Claims: rename(d.Claims, claims)})
		if d.Trap != "" {
			c.Traps[id] = d.Trap
		}
	}
	for i, j := range rng.Perm(len(p.Witnesses)) {
		pw := p.Witnesses[j]
		w := Witness{ID: "w" + strconv.Itoa(i+1), Name: pw.Name, Type: pw.Type}
		for k, m := range rng.Perm(len(pw.Topics)) {
			pt := pw.Topics[m]
			tid := "t" + strconv.Itoa(k+1)
			w.Topics = append(w.Topics, Topic{ID: tid, Title: pt.Title, Testimony: Testimony{
				Source: w.ID + ":" + tid, Witness: w.ID, Topic: tid, Name: pw.Name, Kind: KindTestimony,
				Origin: pt.Origin, Text: pt.Text, Claims: rename(pt.Claims, claims)}})
		}
		c.Witnesses = append(c.Witnesses, w)
	}
	for i, j := range rng.Perm(len(p.Questions)) {
		q := p.Questions[j]
		c.Questions = append(c.Questions, Question{ID: "q" + strconv.Itoa(i+1), Claim: claims[q.Claim], Text: q.Text})
	}
	return c
}

// claimNames maps each claim key of a pack to a public key "c<case>-<n>" in
// a shuffled order, so claim keys say nothing about question order.
func claimNames(p Pack, rng *rand.Rand) map[string]string {
	var keys []string
	seen := map[string]bool{}
	add := func(refs []ClaimRef) {
		for _, r := range refs {
			if !seen[r.Claim] {
				seen[r.Claim] = true
				keys = append(keys, r.Claim)
			}
		}
	}
	for _, q := range p.Questions {
		add([]ClaimRef{{Claim: q.Claim}})
	}
	for _, d := range p.Documents {
		add(d.Claims)
	}
	for _, w := range p.Witnesses {
		for _, t := range w.Topics {
			add(t.Claims)
		}
	}
	out := map[string]string{}
	for i, j := range rng.Perm(len(keys)) {
		out[keys[j]] = fmt.Sprintf("c%d-%d", p.CaseNo, i+1)
	}
	return out
}

func rename(refs []ClaimRef, names map[string]string) []ClaimRef {
	out := make([]ClaimRef, len(refs))
	for i, r := range refs {
		out[i] = ClaimRef{Claim: names[r.Claim], Stance: r.Stance}
	}
	return out
}
