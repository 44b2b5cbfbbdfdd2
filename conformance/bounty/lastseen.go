package bounty

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// maxShortWait bounds the waits a default live run makes: a few seconds,
// never a documented window (those are @long).
const maxShortWait = 5

// shortWait lets n seconds pass: on the embedded clock at once, against a
// live target in real time, even without --long (n is at most a few
// seconds, so it does not stretch the run).
func (w *world) shortWait(ctx context.Context, n int) error {
	if n > maxShortWait {
		return verdict.Errorf("a short wait is at most %d s; a window belongs in a @long scenario", maxShortWait)
	}
	if w.env.Clock != nil {
		w.env.Clock.Advance(secondsDuration(n))
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(secondsDuration(n)):
		return nil
	}
}

// lastSeenOf reads member i's last_seen on the live board: RFC 3339 or
// epoch seconds; ok is false when the board serves none the runner can
// read.
func (w *world) lastSeenOf(ctx context.Context, i int) (time.Time, bool, error) {
	a, err := w.member(i)
	if err != nil {
		return time.Time{}, false, err
	}
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return time.Time{}, false, err
	}
	var doc struct {
		Peers []struct {
			AgentID  string          `json:"agent_id"`
			LastSeen json.RawMessage `json:"last_seen"`
		} `json:"peers"`
	}
	_ = json.Unmarshal(b.raw, &doc)
	for _, e := range doc.Peers {
		if e.AgentID == a.ID {
			t, ok := parseInstant(e.LastSeen)
			return t, ok, nil
		}
	}
	return time.Time{}, false, verdict.Failf("BOUNTY-PEERS-LIST", a.ID+" on the board", "not listed", "a listing just made")
}

// parseInstant reads an RFC 3339 string or epoch seconds.
func parseInstant(raw json.RawMessage) (time.Time, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, err := time.Parse(time.RFC3339, s)
		return t, err == nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f <= 0 {
		return time.Time{}, false
	}
	return time.Unix(0, int64(f*1e9)), true
}

func (w *world) noteLastSeen(ctx context.Context, i int) error {
	t, ok, err := w.lastSeenOf(ctx, i)
	if err != nil {
		return err
	}
	if !ok {
		return verdict.Skipf("the board serves no last_seen the runner can read (RFC 3339 or epoch seconds): unchecked")
	}
	w.seenAt = t
	return nil
}

// lastSeenMoved: after a refresh some seconds later, last_seen moved
// forward with it ("a fresh last_seen proves the peer is still HERE";
// a listing lives 1800 s after its LAST POST), by at least one second
// less than the wait (a second-resolution clock) (BOUNTY-PEERS-REFRESH).
func (w *world) lastSeenMoved(ctx context.Context, i int) error {
	t, ok, err := w.lastSeenOf(ctx, i)
	if err != nil {
		return err
	}
	if !ok {
		return verdict.Failf("BOUNTY-PEERS-REFRESH", "last_seen still served after the refresh", "none", "")
	}
	if !t.After(w.seenAt) {
		return verdict.Failf("BOUNTY-PEERS-REFRESH", "last_seen after "+w.seenAt.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339), "a refresh 2 s after the listing")
	}
	return nil
}
