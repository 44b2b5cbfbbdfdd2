package phantompress

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The broken targets below keep some state per run: what a run showed
// before, so that the next answer can break one rule consistently.

// runView shifts what the answers of each run show by per-run offsets,
// so a broken target can spend or keep a resource the reference does not.
type runView struct {
	mu     sync.Mutex
	offset map[string]float64
}

func newRunView() *runView { return &runView{offset: map[string]float64{}} }

// add moves run's offset by d.
func (v *runView) add(run string, d float64) {
	v.mu.Lock()
	v.offset[run] += d
	v.mu.Unlock()
}

// of is run's offset.
func (v *runView) of(run string) float64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.offset[run]
}

// runOfState is the run_id of an answer's state.
func runOfState(b map[string]any) string {
	st, _ := b["state"].(map[string]any)
	id, _ := st["run_id"].(string)
	return id
}

// shiftField adds d to state[field] (and to the answer's turn when field
// is turn), never below zero.
func shiftField(b map[string]any, field string, d float64) {
	st, ok := b["state"].(map[string]any)
	if !ok || d == 0 {
		return
	}
	n := max(num(st[field])+d, 0)
	st[field] = n
	if field == "turn" {
		b["turn"] = n
	}
}

// actionSpendsTurns spends a turn for every accepted action of the named
// kind, from then on.
func actionSpendsTurns(action string) http.Handler {
	v := newRunView()
	return breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		if in["action"] == action && b["ok"] == true {
			v.add(id, 1)
		}
		shiftField(b, "turn", v.of(id))
	})
}

// apOffsetAfter shows AP moved by d after every accepted action of the
// named kind: -1 charges one more AP, +1 one less.
func apOffsetAfter(action string, d float64) http.Handler {
	v := newRunView()
	return breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		if in["action"] == action && b["ok"] == true {
			v.add(id, d)
		}
		shiftField(b, "ap", v.of(id))
	})
}

// argsFilledIn fills an empty arg with a valid one, as if the target
// guessed what the agent meant.
func argsFilledIn() http.Handler {
	fill := map[string]string{"read": "d1", "interview": "w1 t1", "answer": "q1 裏取り不能 留保", "comment": "メモ"}
	return actionEdit(func(in map[string]any) {
		if arg, _ := in["arg"].(string); strings.TrimSpace(arg) == "" && fill[str(in["action"])] != "" {
			in["arg"] = fill[str(in["action"])]
		}
	})
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// firstAnswerKept shows each question's first recorded answer, whatever
// replaced it.
func firstAnswerKept() http.Handler {
	var mu sync.Mutex
	first := map[string]any{}
	return breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		st, _ := b["state"].(map[string]any)
		answers, _ := st["answers"].(map[string]any)
		mu.Lock()
		defer mu.Unlock()
		for q, a := range answers {
			key := runOfState(b) + "/" + num2(st["case_no"]) + "/" + q
			if prev, ok := first[key]; ok {
				answers[q] = prev
			} else {
				first[key] = a
			}
		}
	})
}

func num2(v any) string { b, _ := json.Marshal(v); return string(b) }

// rejectionsFree spends no turn on a rejected assertion.
func rejectionsFree() http.Handler {
	v := newRunView()
	var mu sync.Mutex
	seen := map[string]float64{}
	return breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		st, _ := b["state"].(map[string]any)
		total := 0.0
		if rej, ok := st["rejections"].(map[string]any); ok {
			for _, n := range rej {
				total += num(n)
			}
		}
		mu.Lock()
		grew := total > seen[id]
		seen[id] = total
		mu.Unlock()
		if in["action"] == "answer" && grew {
			v.add(id, -1)
		}
		shiftField(b, "turn", v.of(id))
	})
}

// noAnswerWithoutAP refuses answer and publish once a run's AP is spent,
// by handing the reference an answer to no question instead.
func noAnswerWithoutAP() http.Handler {
	var mu sync.Mutex
	ap := map[string]float64{}
	inner := ppRef()
	return harness.Wrap(inner, func(r *http.Request, body []byte) []byte {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/action") {
			return body
		}
		var in map[string]any
		json.Unmarshal(body, &in)
		mu.Lock()
		spent, known := ap[runOfPath(r.URL.Path)]
		mu.Unlock()
		if known && spent == 0 && (in["action"] == "answer" || in["action"] == "publish") {
			return []byte(`{"action":"answer","arg":"q99 裏取り不能 留保"}`)
		}
		return body
	}, func(r *http.Request, _ *int, m map[string]any) {
		if st, ok := m["state"].(map[string]any); ok {
			if a, ok := st["ap"].(float64); ok {
				mu.Lock()
				ap[runOfState(m)] = a
				mu.Unlock()
			}
		}
	})
}

// apCarriedOver adds a case's unspent AP to the next case's.
func apCarriedOver() http.Handler {
	v := newRunView()
	var mu sync.Mutex
	left := map[string]float64{}
	return breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		id := runOfState(b)
		if in["action"] == "publish" && b["ok"] == true {
			mu.Lock()
			v.add(id, left[id]-v.of(id))
			mu.Unlock()
		}
		shiftField(b, "ap", v.of(id))
		if st, ok := b["state"].(map[string]any); ok {
			mu.Lock()
			left[id] = num(st["ap"])
			mu.Unlock()
		}
	})
}

// renumberCase shows case from as case to in an answer's state.
func renumberCase(b map[string]any, from, to float64) {
	st, _ := b["state"].(map[string]any)
	if st == nil || st["case_no"] != from {
		return
	}
	st["case_no"] = to
	if c, ok := st["case"].(map[string]any); ok {
		c["case_no"] = to
	}
}

// caseOneDocumentShort shows case 1 with one document fewer than the table.
func caseOneDocumentShort() http.Handler {
	return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
		st, _ := m["state"].(map[string]any)
		c, _ := st["case"].(map[string]any)
		if docs := asList(c["documents"]); c["case_no"] == float64(1) && len(docs) > 1 {
			c["documents"] = docs[:len(docs)-1]
		}
	})
}

// publishFillsGaps answers every open question with a hedge before a
// publish the reference refused, and publishes.
func publishFillsGaps() http.Handler {
	return breaker(func(in map[string]any, b map[string]any, inner func(string, string) map[string]any) {
		if in["action"] != "publish" || b["ok"] != false {
			return
		}
		st, _ := b["state"].(map[string]any)
		c, _ := st["case"].(map[string]any)
		answered, _ := st["answers"].(map[string]any)
		for _, q := range asList(c["questions"]) {
			id := str(q.(map[string]any)["id"])
			if _, ok := answered[id]; !ok {
				inner("answer", id+" 裏取り不能 留保")
			}
		}
		replaceWith(b, inner("publish", ""))
	})
}

// overLimitExtensions lets an extension take the budget past the turn
// limit: where the reference refuses or clamps, the run shows the budget
// asked for from then on.
func overLimitExtensions() http.Handler {
	ref := ppRef()
	v := newRunView()
	budget := func(r *http.Request, id string) float64 {
		read := httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/"+id+"/extend")+"/"+id, nil)
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, read)
		var m map[string]any
		json.Unmarshal(rec.Body.Bytes(), &m)
		return num(m["budget_turns"])
	}
	show := harness.Responses(ref, func(r *http.Request, _ *int, m map[string]any) {
		id := runOfPath(r.URL.Path)
		if id == "" {
			id = runOfState(m)
		}
		if d := v.of(id); d != 0 {
			if _, ok := m["budget_turns"].(float64); ok {
				m["budget_turns"] = num(m["budget_turns"]) + d
			}
			eachState(m, func(st map[string]any) { st["budget_turns"] = num(st["budget_turns"]) + d })
		}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := runOfPath(r.URL.Path)
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/extend") {
			show.ServeHTTP(w, r)
			return
		}
		var in struct {
			Turns float64 `json:"turns"`
		}
		raw, _ := readAll(r)
		if json.Unmarshal(raw, &in) != nil || in.Turns < 1 || in.Turns > 1000 {
			restore(r, raw)
			show.ServeHTTP(w, r)
			return
		}
		want := budget(r, id) + v.of(id) + in.Turns
		restore(r, raw)
		ref.ServeHTTP(httptest.NewRecorder(), r)
		v.add(id, want-(budget(r, id)+v.of(id)))
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"run_id": id, "budget_turns": want})
	})
}

// readAll reads r's body.
func readAll(r *http.Request) ([]byte, error) { return io.ReadAll(r.Body) }

// restore gives r the body raw again.
func restore(r *http.Request, raw []byte) {
	r.Body = io.NopCloser(bytes.NewReader(raw))
	r.ContentLength = int64(len(raw))
}

// brokenLaw reveals, at every publish, the answers law derives from the
// revealed material instead of the seed's law.
func brokenLaw(law func(src []engine.Source, claim string) engine.Verdict) http.Handler {
	return settlements(func(s map[string]any) {
		raw, _ := json.Marshal(s["reveal"])
		var rv engine.Reveal
		if json.Unmarshal(raw, &rv) != nil {
			return
		}
		answers := map[string]any{}
		src := revealedSources(rv)
		for _, q := range rv.Questions {
			answers[q.ID] = string(law(src, q.Claim))
		}
		if m, ok := s["reveal"].(map[string]any); ok {
			m["answers"] = answers
		}
	})
}

// relabel derives the seed's law after edit changed each source.
func relabel(edit func(s *engine.Source)) func(src []engine.Source, claim string) engine.Verdict {
	return func(src []engine.Source, claim string) engine.Verdict {
		out := make([]engine.Source, 0, len(src))
		for _, s := range src {
			edit(&s)
			if s.Kind != "" {
				out = append(out, s)
			}
		}
		return engine.Law(out, claim)
	}
}

// brokenLawCases break the Law of Backing one clause at a time.
func brokenLawCases() []harness.Case {
	return []harness.Case{
		{Name: "an official record counts as one secondary", Rule: "PP-LAW-TRUE-OFFICIAL", Target: brokenLaw(relabel(func(s *engine.Source) {
			if s.Kind == engine.KindOfficial {
				s.Kind, s.Origin = engine.KindArticle, "official:"+s.ID
			}
		}))},
		{Name: "secondaries never back a claim", Rule: "PP-LAW-TRUE-SECONDARY", Target: brokenLaw(relabel(func(s *engine.Source) {
			if s.Kind != engine.KindOfficial {
				s.Kind = ""
			}
		}))},
		{Name: "nothing is ever false", Rule: "PP-LAW-FALSE", Target: brokenLaw(func(src []engine.Source, claim string) engine.Verdict {
			if v := engine.Law(src, claim); v != engine.False {
				return v
			}
			return engine.Unverifiable
		})},
		{Name: "one secondary is enough", Rule: "PP-LAW-UNVERIFIABLE", Target: brokenLaw(oneSecondaryEnough)},
		{Name: "testimonies ignored", Rule: "PP-LAW-TESTIMONY", Target: brokenLaw(relabel(func(s *engine.Source) {
			if s.Kind == engine.KindTestimony {
				s.Kind = ""
			}
		}))},
		{Name: "a diary counts as an official record", Rule: "PP-LAW-DOC-KINDS", Target: brokenLaw(relabel(func(s *engine.Source) {
			if s.Kind == engine.KindDiary {
				s.Kind = engine.KindOfficial
			}
		}))},
		{Name: "a fabricated claim revealed as true", Rule: "PP-LAW-FABRICATED", Target: fabricatedTrue()},
	}
}

// oneSecondaryEnough is the law with a single secondary source deciding a
// claim no official speaks to.
func oneSecondaryEnough(src []engine.Source, claim string) engine.Verdict {
	v := engine.Law(src, claim)
	if v != engine.Unverifiable {
		return v
	}
	var stances []engine.Stance
	for _, s := range src {
		for _, c := range s.Claims {
			if c.Claim == claim {
				if s.Kind == engine.KindOfficial {
					return v
				}
				stances = append(stances, c.Stance)
			}
		}
	}
	if len(stances) == 1 {
		if stances[0] == engine.Supports {
			return engine.True
		}
		return engine.False
	}
	return v
}

// fabricatedTrue reveals 真 for every claim backed only by fabricated
// documents, as if a fabrication were evidence.
func fabricatedTrue() http.Handler {
	return settlements(func(s map[string]any) {
		raw, _ := json.Marshal(s["reveal"])
		var rv engine.Reveal
		if json.Unmarshal(raw, &rv) != nil {
			return
		}
		m, _ := s["reveal"].(map[string]any)
		answers, _ := m["answers"].(map[string]any)
		for _, q := range rv.Questions {
			if fabricatedOnly(weigh(rv, q.Claim), rv) && answers != nil {
				answers[q.ID] = string(engine.True)
			}
		}
	})
}

// ghostChargedTwo charges a ghost answer 2 trust instead of 4 and keeps
// the state, the score and the settlement's lines agreeing with it, as a
// server with that penalty would.
func ghostChargedTwo() http.Handler {
	return trustSpared(func(l map[string]any) float64 {
		if l["ghost"] == true {
			return 2
		}
		return 0
	})
}
