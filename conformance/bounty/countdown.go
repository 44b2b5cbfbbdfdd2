package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// countdown is what the runner noted of one listing before a wait: its
// expires_in_s and when the board that showed it had arrived.
type countdown struct {
	left    float64
	arrived time.Time
}

// noteExpiresIn notes member i's expires_in_s and when the board arrived.
func (w *world) noteExpiresIn(ctx context.Context, i int) error {
	e, err := w.entryOf(ctx, i, "BOUNTY-PEERS-LIST")
	if err != nil {
		return err
	}
	w.expires = countdown{left: e.ExpiresInS, arrived: w.now()}
	return nil
}

// expiresInFell: read again after a wait, member i's expires_in_s fell by
// at least the time the runner let pass between the first board's arrival
// and the second's sending, less a second for a board that rounds to whole
// seconds: "A listing expires 1800s after its last POST" and expires_in_s
// is what reaches 0 (BOUNTY-PEERS-TTL). Only a lower bound of the time
// that passed decides, never the runner's speed.
func (w *world) expiresInFell(ctx context.Context, i int) error {
	sent := w.now()
	e, err := w.entryOf(ctx, i, "BOUNTY-PEERS-LIST")
	if err != nil {
		return err
	}
	passed := sent.Sub(w.expires.arrived).Seconds()
	if passed < 1.5 {
		return verdict.Errorf("only %.1f s passed between the two boards", passed)
	}
	if most := w.expires.left - passed + 1; e.ExpiresInS > most {
		return verdict.Failf("BOUNTY-PEERS-TTL", fmt.Sprintf("expires_in_s at most %.0f (%.0f less the %.1f s that passed)", most, w.expires.left, passed),
			e.ExpiresInS, "member %d's listing, not refreshed meanwhile", i)
	}
	return nil
}

// listEventsNow reads the live round's list-events figure from its
// metrics; ok is false when the metrics name none.
func (w *world) listEventsNow(ctx context.Context) (float64, bool, error) {
	resp, err := w.call(ctx, http.MethodGet, "/challenge/"+w.cid+"/metrics", nil)
	if err != nil {
		return 0, false, err
	}
	var doc any
	if resp.Status/100 != 2 || json.Unmarshal(resp.Body, &doc) != nil {
		return 0, false, nil
	}
	ls := map[string]float64{}
	leaves(doc, "", ls)
	got := figure{all: []string{"list", "event"}}.find(ls)
	if len(got) != 1 {
		return 0, false, nil
	}
	return got[0], true, nil
}

// noteListEvents notes the round's list events before a refresh.
func (w *world) noteListEvents(ctx context.Context) error {
	n, ok, err := w.listEventsNow(ctx)
	if err == nil && !ok {
		return verdict.Skipf("the metrics name no list-events figure under a recognisable path: unchecked")
	}
	w.listEvents = n
	return err
}

// refreshAddedNoEvent: "Refresh is idempotent (no new list event)"
// (BOUNTY-PEERS-REFRESH). On a deployment elsewhere other players may
// list meanwhile, so only a target on this machine decides.
func (w *world) refreshAddedNoEvent(ctx context.Context) error {
	n, ok, err := w.listEventsNow(ctx)
	if err != nil || !ok {
		return err
	}
	if n != w.listEvents && !w.env.Elsewhere() {
		return verdict.Failf("BOUNTY-PEERS-REFRESH", fmt.Sprintf("%.0f list events, as before the refresh", w.listEvents), n, "metrics of %s", w.cid)
	}
	return nil
}
