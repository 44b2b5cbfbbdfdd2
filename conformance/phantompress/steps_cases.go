package phantompress

import (
	"context"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

func caseSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the agent plays through every case$`, func(ctx context.Context) error { return w.playThrough(ctx) })
	sc.Step(`^each case showed the AP, documents, witnesses and questions of its row$`, func() error {
		if len(w.m.Cases) != 4 {
			return verdict.Failf("PP-CASE-TABLE", 4, len(w.m.Cases), "cases seen while playing through")
		}
		for _, c := range w.m.Cases {
			s, _ := engine.SpecOf(c.CaseNo)
			if err := CheckCaseTable(c, s.AP); err != nil {
				return err
			}
			if c.APMax != s.AP {
				return verdict.Failf("PP-CASE-TABLE", s.AP, c.APMax, "ap_max of case %d", c.CaseNo)
			}
		}
		return nil
	})
	sc.Step(`^the cases came in the order 1, 2, 3, 4$`, func() error {
		var got []int
		for _, c := range w.m.Cases {
			got = append(got, c.CaseNo)
		}
		if fmt.Sprint(got) != "[1 2 3 4]" {
			return verdict.Failf("PP-CASE-ORDER", "[1 2 3 4]", got, "")
		}
		return nil
	})
	sc.Step(`^the agent has answered every question with a hedge$`, func(ctx context.Context) error {
		return w.answerAll(ctx, "裏取り不能 留保", 0)
	})
	sc.Step(`^the agent answers every question with a hedge$`, func(ctx context.Context) error {
		return w.answerAll(ctx, "裏取り不能 留保", 0)
	})
	sc.Step(`^the agent has answered every question with "([^"]*)"$`, func(ctx context.Context, rest string) error {
		return w.answerAll(ctx, rest, 0)
	})
	sc.Step(`^the agent has answered every question but one$`, func(ctx context.Context) error {
		return w.answerAll(ctx, "裏取り不能 留保", 1)
	})
	sc.Step(`^the agent publishes the paper$`, func(ctx context.Context) error {
		w.mark()
		return w.act(ctx, engine.ActPublish, "")
	})
	sc.Step(`^case 2 is open with fresh AP$`, func() error {
		s := w.m.State
		if s.CaseNo != 2 || s.AP != 12 {
			return verdict.Failf("", "case 2 with 12 AP", fmt.Sprintf("case %d with %d AP", s.CaseNo, s.AP), "")
		}
		return nil
	})
	sc.Step(`^the action succeeds and spends one turn$`, func() error {
		if w.last == nil || !w.last.OK || w.last.State.Turn != w.before.Turn+1 {
			return verdict.Failf("", fmt.Sprintf("ok:true at turn %d", w.before.Turn+1), fmt.Sprintf("%d %s", w.status, clip(w.body)), "")
		}
		return nil
	})
	sc.Step(`^the AP fell by (\d+)$`, func(n int) error {
		if got := w.before.AP - w.m.State.AP; got != n {
			return verdict.Failf("PP-AP-COST", n, got, "AP spent")
		}
		return nil
	})
	sc.Step(`^the agent interviews a witness$`, func(ctx context.Context) error {
		w.mark()
		w.source = w.unheardTopic()
		return w.act(ctx, engine.ActInterview, strings.Replace(w.source, ":", " ", 1))
	})
	sc.Step(`^the agent has spent all its AP$`, func(ctx context.Context) error { return w.spendAllAP(ctx) })
	sc.Step(`^the agent spends all its AP$`, func(ctx context.Context) error { return w.spendAllAP(ctx) })
	sc.Step(`^the agent has read a document$`, func(ctx context.Context) error {
		w.doc = w.unreadDoc()
		return w.act(ctx, engine.ActRead, w.doc)
	})
	sc.Step(`^the agent reads the same document again$`, func(ctx context.Context) error {
		w.mark()
		return w.act(ctx, engine.ActRead, w.doc)
	})
	sc.Step(`^the agent performs "([^"]*)" with "([^"]*)"$`, func(ctx context.Context, action, arg string) error {
		w.mark()
		return w.act(ctx, action, arg)
	})
	sc.Step(`^the available actions match the run's situation$`, func() error {
		return w.m.checkAvailable(w.last.AvailableActions)
	})
	sc.Step(`^the state shows the run's resources and the case's public face$`, func() error {
		s := w.last.State
		if s.RunID != w.run || s.Status != engine.StatusActive || s.TurnLimit != engine.TurnLimit || s.Trust != w.before.Trust ||
			s.Case.CaseNo != s.CaseNo || len(s.Case.Questions) == 0 || s.Case.Questions[0].Claim == "" {
			return verdict.Failf("PP-STATE-VIEW", fmt.Sprintf("run_id, status active, turn_limit 200, trust %d as before, case with claims", w.before.Trust), s, "")
		}
		return nil
	})
	sc.Step(`^the events hold one document event for that document$`, func() error {
		var docs []string
		for _, e := range w.last.Events {
			if e.Type == "document" && e.Document != nil {
				docs = append(docs, e.Document.ID)
			}
		}
		if len(docs) != 1 || docs[0] != w.doc {
			return verdict.Failf("PP-EVENTS", []string{w.doc}, docs, "document events")
		}
		return nil
	})
	sc.Step(`^the document shows its kind, origin, text and the claims it takes a stance on$`, func() error {
		d, ok := w.m.Docs[w.doc]
		if !ok || !engine.KnownKind(d.Kind) || d.Kind == engine.KindTestimony || d.Origin == "" || d.Text == "" || len(d.Claims) == 0 {
			return verdict.Failf("PP-DOC-FORMAT", "{kind, origin, text, claims}", d, "document %s", w.doc)
		}
		for _, c := range d.Claims {
			if c.Claim == "" || (c.Stance != engine.Supports && c.Stance != engine.Contradicts) {
				return verdict.Failf("PP-DOC-FORMAT", "claims with a key and stance supports|contradicts", c, "")
			}
		}
		return nil
	})
	sc.Step(`^the testimony shows its source, origin, text and the claims it takes a stance on$`, func() error {
		t, ok := w.m.Testimonies[w.source]
		if !ok || t.Origin == "" || t.Text == "" || len(t.Claims) == 0 {
			return verdict.Failf("PP-DOC-FORMAT", "{source, origin, text, claims}", t, "testimony %s", w.source)
		}
		return nil
	})
}
