package bounty

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

func (w *world) policySteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the board's coalition_proximity is the one computed from its listings$`), w.proximityMatches)
	sc.Step(pattern(`^the board is combinable with a valid roster whose lowest agent_id is the broker$`), w.combinableWithBroker)
	sc.Step(pattern(`^the board's roster is the greedy matching in agent_id order$`), w.rosterIsGreedy)
	sc.Step(pattern(`^the board's solve_election is the one computed from its listings$`), w.electionMatches)
	sc.Step(pattern(`^every agent's next_move matches the board$`), func(ctx context.Context) error { return w.everyMove(ctx, false) })
	sc.Step(pattern(`^every agent's next_move is the kit's exact pick$`), func(ctx context.Context) error { return w.everyMove(ctx, true) })
	sc.Step(pattern(`^next_move on the closed challenge answers done$`), w.doneOnClosed)
}

func (w *world) proximityMatches(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	return w.checkProximity(b)
}

func (w *world) combinableWithBroker(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if !b.Proximity.CombinableNow {
		return verdict.Failf("BOUNTY-PROXIMITY", "combinable_now true", false, "k listed holders of distinct shares")
	}
	return w.checkRoster(b)
}

// rosterIsGreedy compares the served roster with the kit's choice
// (BOUNTY-ROSTER), after the MUST conditions of the roster held.
func (w *world) rosterIsGreedy(ctx context.Context) error {
	if err := w.combinableWithBroker(ctx); err != nil {
		return err
	}
	b, _ := w.board(ctx, w.cid)
	want := bounty.ComputeProximity(b.pure(w.man.Threshold.K, w.man.Threshold.N)).Roster
	if fmt.Sprint(sortedPairs(want)) != fmt.Sprint(sortedPairs(b.Proximity.Roster)) {
		return verdict.Failf("BOUNTY-ROSTER", want, b.Proximity.Roster, "greedy by agent_id")
	}
	return nil
}

func (w *world) electionMatches(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if err := w.checkProximity(b); err != nil {
		return err
	}
	return w.checkElection(b)
}

// everyMove reads the board once, then every member's next_move, and
// compares each with the policy recomputed from that board.
func (w *world) everyMove(ctx context.Context, exact bool) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	for _, a := range w.team {
		if err := w.checkNextMove(ctx, b, a, exact); err != nil {
			return err
		}
	}
	return nil
}

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

func (w *world) profileSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^agent (\d+) edits its profile name with a wrong secret$`), w.editWithWrongSecret)
	sc.Step(pattern(`^agent (\d+)'s profile name is unchanged$`), func(ctx context.Context, i int) error { return w.nameIs(ctx, i, "") })
	sc.Step(pattern(`^agent (\d+) edits its profile name to "([^"]*)"$`), func(ctx context.Context, i int, name string) error { return w.editName(ctx, i, name) })
	sc.Step(pattern(`^agent (\d+) takes a fresh unique name$`), w.takeUniqueName)
	sc.Step(pattern(`^agent (\d+) edits its profile name to agent (\d+)'s name$`), func(ctx context.Context, i, j int) error { return w.editName(ctx, i, w.names[j]) })
	sc.Step(pattern(`^agent (\d+) still has its name$`), func(ctx context.Context, i int) error { return w.nameIs(ctx, i, w.names[i]) })
	sc.Step(pattern(`^agent (\d+) sets notify_url "([^"]*)"$`), w.setNotify)
	sc.Step(pattern(`^agent (\d+)'s public profile carries the kit's fields$`), w.profileFields)
	sc.Step(pattern(`^the discovery document names the live challenge and its endpoints$`), w.discoveryNamesLive)
}

func (w *world) editProfile(ctx context.Context, i int, secret string, fields map[string]any) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	if secret == "" {
		secret = a.Secret
	}
	body := map[string]any{"agent_id": a.ID, "agent_secret": secret}
	for k, v := range fields {
		body[k] = v
	}
	_, err = w.call(ctx, http.MethodPost, "/agents/profile", body)
	return err
}

func (w *world) editWithWrongSecret(ctx context.Context, i int) error {
	return w.editProfile(ctx, i, "sk-not-the-secret-of-this-agent", map[string]any{"name": w.uniqueName(ctx)})
}

func (w *world) editName(ctx context.Context, i int, name string) error {
	return w.editProfile(ctx, i, "", map[string]any{"name": name})
}

// uniqueName is a name no earlier run or scenario used.
func (w *world) uniqueName(ctx context.Context) string {
	st, err := w.state()
	n := 0
	if err == nil {
		st.mu.Lock()
		st.uniqueSeq++
		n = st.uniqueSeq
		st.mu.Unlock()
	}
	return fmt.Sprintf("kit-%s-%d", strings.TrimPrefix(w.team[0].ID, "agent-"), n)
}

func (w *world) takeUniqueName(ctx context.Context, i int) error {
	name := w.uniqueName(ctx)
	if err := w.editName(ctx, i, name); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf("BOUNTY-PROFILE-NAME", "200 for a unique 2-32 char name", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	w.names[i] = name
	return nil
}

func (w *world) nameIs(ctx context.Context, i int, want string) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	var p struct {
		Name string `json:"name"`
	}
	if err := w.want2xx(ctx, "BOUNTY-PROFILE-READ", http.MethodGet, "/agents/"+a.ID, nil, &p); err != nil {
		return err
	}
	if p.Name != want {
		return verdict.Failf(w.rule, fmt.Sprintf("name %q", want), p.Name, "a refused edit changes nothing")
	}
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
