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
	sc.Step(pattern(`^the agent has read another document silent on that question$`), w.readSilentDocument)
	sc.Step(pattern(`^the agent asserts that question citing both documents$`), w.assertCitingBoth)
	sc.Step(pattern(`^the agent posts (.+) to (\S+) without authorization$`), w.postWithoutAuth)
	sc.Step(pattern(`^the agent fetches (the API document|the run's log|the recent runs|the leaderboard) without a key$`), w.fetchWithoutKey)
	sc.Step(pattern(`^the request succeeds$`), w.requestSucceeds)
	sc.Step(pattern(`^a new agent registers with a name and an owner$`), w.registerWithOwner)
	sc.Step(pattern(`^the agent (?:has spent|spends) its AP with a document still unread$`), w.spendAPKeepingUnread)
	sc.Step(pattern(`^the answer carries ok, turn, narrative, state, events and available_actions$`), w.actionResponseFields)
	sc.Step(pattern(`^the state carries case_no, turn, trust, ap and the status "([^"]*)"$`), w.stateClientFields)
	sc.Step(pattern(`^the final case added both the clear bonus and the victory bonus$`), w.finalCaseBonuses)
}

// readSilentDocument reads documents until one is silent on the kept
// question, keeping it as the second source; it skips when none affordable
// is.
func (w *world) readSilentDocument(ctx context.Context) error {
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
}

// assertCitingBoth marks the run and asserts the kept question as the kept
// document backs it, citing both kept sources.
func (w *world) assertCitingBoth(ctx context.Context) error {
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
}

// postWithoutAuth marks the run and posts a raw body to an endpoint (":id"
// standing for the run) with no Authorization header.
func (w *world) postWithoutAuth(ctx context.Context, body, endpoint string) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, strings.Replace(endpoint, ":id", w.run, 1), "", nil, []byte(body))
	return err
}

// fetchWithoutKey fetches one of the public endpoints with no key.
func (w *world) fetchWithoutKey(ctx context.Context, what string) error {
	path := map[string]string{"the API document": "", "the run's log": "/runs/" + w.run, "the recent runs": "/runs?recent=5", "the leaderboard": "/leaderboard"}[what]
	_, err := w.do(ctx, http.MethodGet, path, "", nil, nil)
	return err
}

// requestSucceeds checks that the request was answered 200 (the scenario's
// rule).
func (w *world) requestSucceeds() error {
	if w.status != http.StatusOK {
		return verdict.Failf(w.rule(), 200, w.status, "%s", clip(w.body))
	}
	return nil
}

// registerWithOwner registers a new agent with a name and an owner, keeping
// its answer and redacting the API key it gets.
func (w *world) registerWithOwner(ctx context.Context) error {
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
}

// actionResponseFields checks that an action's answer carries the fields
// the seed's client reads (PP-ACTION-RESPONSE).
func (w *world) actionResponseFields() error {
	for _, k := range []string{"ok", "turn", "narrative", "state", "events", "available_actions"} {
		if !hasKey(w.body, k) {
			return verdict.Failf("PP-ACTION-RESPONSE", "ok, turn, narrative, state, events, available_actions", clip(w.body), "no %q", k)
		}
	}
	return nil
}

// stateClientFields checks that the state carries the fields the seed's
// client reads, at case 1 with the initial trust and the given status
// (PP-STATE-CLIENT-FIELDS).
func (w *world) stateClientFields(status string) error {
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
}

// finalCaseBonuses checks that case 4's settlement added both the clear and
// the victory bonus (PP-SETTLE-VICTORY; PP-SETTLE-BONUS when case 4 was
// never settled).
func (w *world) finalCaseBonuses() error {
	for _, s := range w.m.Settlements {
		if s.CaseNo == 4 {
			if s.ClearBonus != engine.BonusCaseClear || s.VictoryBonus != engine.BonusVictory {
				return verdict.Failf("PP-SETTLE-VICTORY", [2]int{engine.BonusCaseClear, engine.BonusVictory}, [2]int{s.ClearBonus, s.VictoryBonus}, "case 4")
			}
			return nil
		}
	}
	if _, err := w.lastSettlement(); err != nil {
		return err
	}
	return verdict.Failf("PP-SETTLE-BONUS", "a settlement of case 4", len(w.m.Settlements), "")
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
