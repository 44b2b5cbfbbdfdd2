package bounty

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

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

func (w *world) nameIs(ctx context.Context, i int, want string) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	var p struct {
		Name string `json:"name"`
	}
	if err := w.want2xx(ctx, "BOUNTY-PROFILE-READ", http.MethodGet, "/agents/"+a.ID, nil, &p); err != nil {
		var f *verdict.Failure
		if !errors.As(err, &f) || w.rule == "BOUNTY-PROFILE-READ" {
			return err
		}
		// The profile read's shape is the kit's: noted, and the edit's
		// effect is unchecked rather than warned or failed.
		w.note(f.RuleID, f.Expected, f.Observed, "%s", f.Detail)
		return verdict.Skipf("unchecked: %s, the profile of %s cannot be read (%s)", w.rule, a.ID, f.Detail)
	}
	if p.Name != want {
		return verdict.Failf(w.rule, fmt.Sprintf("name %q", want), p.Name, "a refused edit changes nothing")
	}
	return nil
}
