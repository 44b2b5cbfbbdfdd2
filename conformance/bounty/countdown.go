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

// boardClock is a clock of the board that runs with the time that
// passes, read from a board, and the rule whose statement it belongs to.
type boardClock struct {
	rule string
	read func(b *boardDoc) (float64, bool)
}

// boardClocks are the board's clocks that count up: combinable_for_s
// while the board stays combinable (BOUNTY-BROKER: it is what
// broker_grace_s is measured against) and the election's stalled_for_s
// while no solve or claim lands (BOUNTY-ELECTION: "if no solve or claim
// lands for grace_s seconds (stalled_for_s)"). ok is false where the
// board gives no reading the clock must run on.
var boardClocks = map[string]boardClock{
	"combinable_for_s": {"BOUNTY-BROKER", func(b *boardDoc) (float64, bool) {
		return b.Proximity.CombinableForS, b.Proximity.CombinableNow
	}},
	"stalled_for_s": {"BOUNTY-ELECTION", func(b *boardDoc) (float64, bool) {
		return b.Proximity.Election.StalledForS, !b.Proximity.CombinableNow
	}},
}

// noteBoardClock notes a board clock and when the board that showed it
// had arrived.
func (w *world) noteBoardClock(ctx context.Context, name string) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	v, ok := boardClocks[name].read(b)
	if !ok {
		return verdict.Skipf("the board gives %s nothing to count: unchecked", name)
	}
	w.clock = countdown{left: v, arrived: w.now()}
	return nil
}

// boardClockRose: read again after a wait, the clock rose by at least the
// time that passed between the first board's arrival and the second's
// sending, less a second for a board that rounds to whole seconds. On a
// deployment elsewhere another player's solve or claim may restart the
// election's clock meanwhile, so there a clock that rose too little is
// unchecked; a board no longer combinable (a win elsewhere) leaves
// combinable_for_s unchecked too.
func (w *world) boardClockRose(ctx context.Context, name string) error {
	sent := w.now()
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	c := boardClocks[name]
	v, ok := c.read(b)
	passed := sent.Sub(w.clock.arrived).Seconds()
	switch least := w.clock.left + passed - 1; {
	case passed < 1.5:
		return verdict.Errorf("only %.1f s passed between the two boards", passed)
	case !ok:
		return verdict.Skipf("the board changed meanwhile: %s unchecked", name)
	case v < least && name == "stalled_for_s" && w.env.Elsewhere():
		return verdict.Skipf("%s rose too little, but another player may have solved or claimed meanwhile: unchecked", name)
	case v < least:
		return verdict.Failf(c.rule, fmt.Sprintf("%s at least %.0f (%.0f and the %.1f s that passed)", name, least, w.clock.left, passed), v,
			"the board of %s, unchanged meanwhile", w.cid)
	}
	return nil
}
