package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// moreSteps holds the steps of the rules the audit added: the fields the
// seed's client reads, auth per endpoint, AP-free actions, the all-sources
// reading of backing and the final case's bonuses.
func moreSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the agent has read another document silent on that question$`, func(ctx context.Context) error {
		for w.m.State.AP >= engine.APRead && w.unreadDoc() != "" {
			id := w.unreadDoc()
			if err := w.act(ctx, engine.ActRead, id); err != nil {
				return err
			}
			if !w.silentOn(id, w.question) {
				continue
			}
			w.source = id
			return nil
		}
		return verdict.Skipf("no affordable document of case 1 is silent on %s", w.question)
	})
	sc.Step(`^the agent asserts that question citing both documents$`, func(ctx context.Context) error {
		w.mark()
		var st engine.Stance
		s, _ := w.m.observedSource(w.doc)
		for _, q := range w.m.State.Case.Questions {
			for _, c := range s.Claims {
				if q.ID == w.question && c.Claim == q.Claim {
					st = c.Stance
				}
			}
		}
		return w.act(ctx, engine.ActAnswer, fmt.Sprintf("%s %s 断言 %s %s", w.question, verdictOf(st, false), w.doc, w.source))
	})
	sc.Step(`^the agent posts (.+) to (\S+) without authorization$`, func(ctx context.Context, body, endpoint string) error {
		w.mark()
		_, err := w.do(ctx, http.MethodPost, strings.Replace(endpoint, ":id", w.run, 1), "", nil, []byte(body))
		return err
	})
	sc.Step(`^the agent fetches (the API document|the run's log|the recent runs|the leaderboard) without a key$`, func(ctx context.Context, what string) error {
		path := map[string]string{"the API document": "", "the run's log": "/runs/" + w.run, "the recent runs": "/runs?recent=5", "the leaderboard": "/leaderboard"}[what]
		_, err := w.do(ctx, http.MethodGet, path, "", nil, nil)
		return err
	})
	sc.Step(`^the request succeeds$`, func() error {
		if w.status != http.StatusOK {
			return verdict.Failf("", 200, w.status, "%s", clip(w.body))
		}
		return nil
	})
	sc.Step(`^a new agent registers with a name and an owner$`, func(ctx context.Context) error {
		_, err := w.do(ctx, http.MethodPost, "/register", "", map[string]string{"name": "pp-owned", "owner": "conformance"}, nil)
		if err == nil && created2xx(w.status) {
			poolOf(w.env).regs++
			w.reg = map[string]any{}
			json.Unmarshal(w.body, &w.reg)
			if key, ok := w.reg["api_key"].(string); ok {
				w.env.HTTP.Secrets().Add(key)
			}
		}
		return err
	})
	sc.Step(`^the agent (?:has spent|spends) its AP with a document still unread$`, func(ctx context.Context) error {
		return w.spendAPKeepingUnread(ctx)
	})
	sc.Step(`^the answer carries ok, turn, narrative, state, events and available_actions$`, func() error {
		for _, k := range []string{"ok", "turn", "narrative", "state", "events", "available_actions"} {
			if !hasKey(w.body, k) {
				return verdict.Failf("PP-ACTION-RESPONSE", "ok, turn, narrative, state, events, available_actions", clip(w.body), "no %q", k)
			}
		}
		return nil
	})
	sc.Step(`^the state carries case_no, turn, trust, ap and the status "([^"]*)"$`, func(status string) error {
		has := stateKeys(w.body)
		for _, k := range []string{"case_no", "turn", "trust", "ap", "status"} {
			if !has[k] {
				return verdict.Failf("PP-STATE-CLIENT-FIELDS", "state.case_no, turn, trust, ap, status", clip(w.body), "no state.%s", k)
			}
		}
		if s := w.last.State; s.Status != status || s.CaseNo != 1 || s.Trust != engine.TrustInit {
			return verdict.Failf("PP-STATE-CLIENT-FIELDS", fmt.Sprintf("case 1, trust 100, status %q", status), fmt.Sprintf("case %d, trust %d, status %q", s.CaseNo, s.Trust, s.Status), "")
		}
		return nil
	})
	sc.Step(`^the final case added both the clear bonus and the victory bonus$`, func() error {
		for _, s := range w.m.Settlements {
			if s.CaseNo == 4 {
				if s.ClearBonus != engine.BonusCaseClear || s.VictoryBonus != engine.BonusVictory {
					return verdict.Failf("PP-SETTLE-VICTORY", [2]int{engine.BonusCaseClear, engine.BonusVictory}, [2]int{s.ClearBonus, s.VictoryBonus}, "case 4")
				}
				return nil
			}
		}
		return verdict.Failf("PP-SETTLE-BONUS", "a settlement of case 4", len(w.m.Settlements), "")
	})
}

// silentOn reports whether an observed source takes no stance on question q.
func (w *world) silentOn(src, q string) bool {
	s, ok := w.m.observedSource(src)
	if !ok {
		return false
	}
	for _, qq := range w.m.State.Case.Questions {
		if qq.ID == q {
			return !engine.Backs(s, qq.Claim, engine.True) && !engine.Backs(s, qq.Claim, engine.False)
		}
	}
	return false
}
