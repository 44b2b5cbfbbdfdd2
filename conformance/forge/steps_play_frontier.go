package forge

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// playFrontierSteps registers the steps of features/forge/play.feature (its rules on frontier).
func (w *world) playFrontierSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent solves level after level$`), w.walkChain)
	sc.Step(pattern(`^no answer showed a level before it was unlocked$`), w.nothingEarly)
	sc.Step(pattern(`^at the frontier progress says atFrontier and no session opens$`), w.frontierJudged)
	sc.Step(pattern(`^the level after the agent's current one is disabled$`), w.disableNext)
	sc.Step(pattern(`^its progress skips the disabled level as skipped, not cleared$`), w.disabledJudged)
}

// walkChain clears level after level up to the frontier (at most
// liveLevelCap levels on a live target), remembering when each level
// became visible.
func (w *world) walkChain(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	w.unlocks = nil
	for n := 0; p.CurrentLevel != nil; n++ {
		if w.env.Live() && n >= liveLevelCap {
			w.capped = true
			return nil
		}
		mark := len(w.bodies)
		_, d, err := w.clear(ctx, w.me, 0)
		if err != nil {
			return err
		}
		p = d.Progress
		read, err := w.progress(ctx, w.me)
		if err != nil {
			return err // the same, read back (FORGE-AT-FRONTIER)
		}
		if err := p.agrees(read); err != nil {
			return err
		}
		if p.CurrentLevel != nil {
			w.unlocks = append(w.unlocks, unlock{view: *p.CurrentLevel, before: mark})
		}
	}
	return nil
}

// nothingEarly: a level's title, rules and id appear in no answer the
// runner saw before the submission that unlocked it, unless an earlier
// level shared them (FORGE-FUTURE-LOCKED).
func (w *world) nothingEarly() error {
	seen := map[string]bool{}
	for _, u := range w.unlocks {
		for _, text := range []string{u.view.Title, u.view.Rules, u.view.LevelID} {
			if len(text) < 6 || seen[text] {
				continue
			}
			quoted, _ := json.Marshal(text)
			needle := strings.Trim(string(quoted), `"`)
			for i, b := range w.bodies[:u.before] {
				if strings.Contains(string(b), needle) {
					return verdict.Failf("FORGE-FUTURE-LOCKED", "no content of a locked level", text,
						"answer %d showed level %d's content before it was unlocked", i+1, u.view.Position)
				}
			}
		}
		seen[u.view.Title], seen[u.view.Rules], seen[u.view.LevelID] = true, true, true
	}
	return nil
}

func (w *world) frontierJudged(ctx context.Context) error {
	if w.capped {
		return verdict.Skipf("the live chain is longer than the %d levels a run solves", liveLevelCap)
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if !p.frontier() || p.CurrentLevel != nil {
		return verdict.Failf("FORGE-AT-FRONTIER", "atFrontier true and no current level", p.frontier(), "after clearing every level")
	}
	s, resp, err := w.openSession(ctx, w.me)
	if err != nil {
		return err
	}
	if s != nil {
		return verdict.Failf("FORGE-AT-FRONTIER", "no session at the frontier", resp.Status, "a session opened on position %d", s.Position)
	}
	return nil
}

func (w *world) disableNext(ctx context.Context) error {
	ref, ok := w.env.Reference.(enabler)
	if !ok {
		return verdict.Skipf("disabling a level needs the embedded reference")
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return verdict.Errorf("a new agent has no current level")
	}
	w.Before = p.progress()
	w.disabled = p.CurrentLevel.Position + 1
	ref.SetEnabled(w.disabled, false)
	return nil
}

func (w *world) disabledJudged(ctx context.Context) error {
	if ref, ok := w.env.Reference.(enabler); ok {
		defer ref.SetEnabled(w.disabled, true)
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.progress() != w.Before+2 || deref(p.SkippedLevels) != 1 || deref(p.ClearedLevels) != 1 {
		return verdict.Failf("FORGE-DISABLED-SKIP", "progress +2 with 1 cleared and 1 skipped",
			[]int{p.progress() - w.Before, deref(p.ClearedLevels), deref(p.SkippedLevels)}, "after clearing the level before a disabled one")
	}
	return nil
}
