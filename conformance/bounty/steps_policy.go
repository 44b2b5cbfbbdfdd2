package bounty

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

func (w *world) doneOnClosed(ctx context.Context) error {
	if w.closed == "" {
		return verdict.Errorf("no round was closed")
	}
	var out struct {
		Move bounty.Move `json:"next_move"`
	}
	path := "/challenge/" + w.closed + "/next_move?agent_id=" + url.QueryEscape(w.team[0].ID)
	if err := w.want2xx(ctx, "BOUNTY-NEXT-SPREAD", http.MethodGet, path, nil, &out); err != nil {
		return err
	}
	if out.Move.Move != bounty.MoveDone {
		return verdict.Failf("BOUNTY-NEXT-SPREAD", "done", out.Move.Move, "next_move of a closed challenge")
	}
	return nil
}

func (w *world) editWithWrongSecret(ctx context.Context, i int) error {
	return w.editProfile(ctx, i, "sk-not-the-secret-of-this-agent", map[string]any{"name": w.uniqueName(ctx)})
}

func (w *world) takeUniqueName(ctx context.Context, i int) error {
	name := w.uniqueName(ctx)
	if err := w.editName(ctx, i, name); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf("BOUNTY-PROFILE-NAME", "200 for a unique 2-32 char name", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	w.names[i] = name
	return nil
}

func (w *world) setNotify(ctx context.Context, i int, u string) error {
	return w.editProfile(ctx, i, "", map[string]any{"notify_url": u})
}

func (w *world) profileFields(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	var p map[string]any
	if err := w.want2xx(ctx, "BOUNTY-PROFILE-READ", http.MethodGet, "/agents/"+a.ID, nil, &p); err != nil {
		return err
	}
	for _, f := range []string{"agent_id", "name", "contact", "house", "registered_round", "rounds_won", "accepted_solves", "rounds_played", "reputation"} {
		if _, ok := p[f]; !ok {
			return verdict.Failf("BOUNTY-PROFILE-READ", "field "+f, "absent", "")
		}
	}
	return nil
}

func (w *world) discoveryNamesLive(ctx context.Context) error {
	var d struct {
		Protocol    string            `json:"protocol"`
		ChallengeID string            `json:"challenge_id"`
		Endpoints   map[string]string `json:"endpoints"`
	}
	if err := w.want2xx(ctx, "BOUNTY-DISCOVERY", http.MethodGet, "/.well-known/agent-puzzle-bounty.json", nil, &d); err != nil {
		return err
	}
	if d.Protocol != "agent-puzzle-bounty/1" || d.ChallengeID != w.cid || d.Endpoints["peers"] == "" {
		return verdict.Failf("BOUNTY-DISCOVERY", "agent-puzzle-bounty/1 with the live challenge "+w.cid, d.ChallengeID, "")
	}
	return nil
}

// policySteps registers the steps of features/bounty/policy.feature.
func (w *world) policySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the answer is 200$`), w.answer200)
	sc.Step(pattern(`^every response so far matched the OpenAPI document$`), w.openAPIClean)
	sc.Step(pattern(`^agents (\d+) to (\d+) list$`), w.listMembers)
	sc.Step(pattern(`^agent (\d+) claims share (\d+)$`), w.claim)
	sc.Step(pattern(`^agent (\d+) is told to list with join true$`), w.toldToJoin)
	sc.Step(pattern(`^every agent's next_move matches the board$`), func(ctx context.Context) error { return w.everyMove(ctx, false) })
	sc.Step(pattern(`^every agent's next_move is the kit's exact pick$`), func(ctx context.Context) error { return w.everyMove(ctx, true) })
	sc.Step(pattern(`^next_move on the closed challenge answers done$`), w.doneOnClosed)
	sc.Step(pattern(`^agent (\d+) edits its profile name with a wrong secret$`), w.editWithWrongSecret)
	sc.Step(pattern(`^agent (\d+) edits its profile name with agent (\d+)'s secret$`), w.editWithOthersSecret)
	sc.Step(pattern(`^agent (\d+) edits its profile name with an empty secret$`), func(ctx context.Context, i int) error {
		return w.editWithBody(ctx, i, map[string]any{"agent_secret": ""})
	})
	sc.Step(pattern(`^agent (\d+) edits its profile name without a secret$`), func(ctx context.Context, i int) error { return w.editWithBody(ctx, i, nil) })
	sc.Step(pattern(`^agent (\d+)'s profile name is unchanged$`), func(ctx context.Context, i int) error { return w.nameIs(ctx, i, "") })
	sc.Step(pattern(`^agent (\d+) edits its profile name to "([^"]*)"$`), func(ctx context.Context, i int, name string) error { return w.editName(ctx, i, name) })
	sc.Step(pattern(`^agent (\d+) takes a fresh unique name$`), w.takeUniqueName)
	sc.Step(pattern(`^agent (\d+) edits its profile name to agent (\d+)'s name$`), func(ctx context.Context, i, j int) error { return w.editName(ctx, i, w.names[j]) })
	sc.Step(pattern(`^agent (\d+) still has its name$`), func(ctx context.Context, i int) error { return w.nameIs(ctx, i, w.names[i]) })
	sc.Step(pattern(`^agent (\d+) takes a fresh name of (\d+) characters$`), w.takeNameOfLength)
	sc.Step(pattern(`^agent (\d+) edits its profile name to a fresh name of (\d+) characters$`), w.editNameOfLength)
	sc.Step(pattern(`^agent (\d+) sets its profile contact to (\d+) characters$`), w.editContactOfLength)
	sc.Step(pattern(`^agent (\d+) sets its profile contact to (\d+) characters with a fresh name$`), w.editContactWithName)
	sc.Step(pattern(`^agent (\d+) sets its profile contact to (\d+) characters ending in wide letters, where it takes a few$`), func(ctx context.Context, i, n int) error {
		return w.wideContact(n, "BOUNTY-PROFILE-CONTACT", func(c string) error { return w.editProfile(ctx, i, "", map[string]any{"contact": c}) })
	})
	sc.Step(pattern(`^agent (\d+)'s profile contact is the one of (\d+) characters$`), w.profileContactIs)
	sc.Step(pattern(`^the answer is a success$`), w.answerSucceeded)
	sc.Step(pattern(`^agent (\d+) sets notify_url "([^"]*)"$`), w.setNotify)
	sc.Step(pattern(`^agent (\d+)'s public profile carries the kit's fields$`), w.profileFields)
	sc.Step(pattern(`^the discovery document names the live challenge and its endpoints$`), w.discoveryNamesLive)
}

func (w *world) answer200() error {
	if w.Last == nil || w.Last.Status/100 != 2 {
		return verdict.Failf(w.rule, "2xx", w.Status(), "%s", w.bodyOf())
	}
	return nil
}

func (w *world) openAPIClean() error {
	rec := w.env.HTTP.Recorder()
	if rec == nil || len(rec.Exchanges()) == 0 {
		return verdict.Errorf("no response to validate")
	}
	if f := rec.Findings(); len(f) > 0 {
		return f[0]
	}
	return nil
}
