package bounty

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// noticeWait is how long the kit waits for a round_open notice: the
// contract names no delay, so none arriving is unchecked, not a failure.
const noticeWait = 5 * time.Second

// noticeSettle is how long after the first notice the kit still listens
// for a second one about the same round.
const noticeSettle = time.Second

// combineNoticeSteps registers the notify_url steps of features/bounty/combine.feature.
func (w *world) combineNoticeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^agent (\d+)'s notify_url is the kit's own https endpoint$`), w.notifyAtKit)
	sc.Step(pattern(`^the kit's endpoint gets one round_open notice for the round the win opened$`), w.oneRoundOpenNotice)
	sc.Step(pattern(`^the kit's endpoint gets no round_open notice$`), w.noRoundOpenNotice)
}

// notifyAtKit serves an https endpoint on loopback (a self-signed
// certificate) and sets agent i's notify_url to it. A platform not on
// this machine cannot reach it: unchecked there.
func (w *world) notifyAtKit(ctx context.Context, i int) error {
	if w.env.Elsewhere() {
		return verdict.Skipf("unchecked: a platform on another machine cannot reach the kit's loopback https endpoint for round_open notices")
	}
	in, err := w.env.Inbound(driver.InboundOptions{TLS: true, Buffer: 16})
	if err != nil {
		return err
	}
	w.notices = in
	if err := w.setNotify(ctx, i, in.URL()+"/round-open"); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf("BOUNTY-PROFILE-NOTIFY", "200 for an https notify_url", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// oneRoundOpenNotice waits for the notice of the round the win opened and
// fails a second notice about that same round (BOUNTY-ROUND-OPEN-NOTICE:
// "we POST one round_open notice per new round"). Only POSTs are notices
// (a platform may probe the URL otherwise). A POST is about the round when
// it names its challenge_id or number, or, when no other round opened
// meanwhile, when it says round_open. The body's shape is open: a lone
// POST that says neither is only noted (BOUNTY-REF-NOTIFY), and several
// such POSTs are unchecked, since which of them are notices is not
// decidable.
func (w *world) oneRoundOpenNotice(ctx context.Context) error {
	cid, round, err := w.live(ctx)
	if err != nil {
		return err
	}
	about := func(r *driver.InboundRequest, onlyRound bool) bool {
		return r.Method == http.MethodPost &&
			(namesRound(r.Body, cid, round) || onlyRound && bytes.Contains(r.Body, []byte("round_open")))
	}
	posts := w.collectNotices(ctx, func(r *driver.InboundRequest) bool { return about(r, true) })
	if len(posts) == 0 {
		return verdict.Skipf("unchecked: no round_open notice reached the kit's endpoint within %s of the win (the contract names no delay)", noticeWait)
	}
	laterCID, _, err := w.live(ctx)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range posts {
		if about(r, laterCID == cid) {
			n++
		}
	}
	switch {
	case n > 1:
		return verdict.Failf("BOUNTY-ROUND-OPEN-NOTICE", "one round_open notice for the round", fmt.Sprintf("%d notices", n),
			"round %d (%s) opened once", round, cid)
	case n == 0 && len(posts) > 1:
		return verdict.Skipf("unchecked: %d POSTs reached notify_url and none names round_open or the round, so which are notices is not decidable", len(posts))
	case n == 0:
		w.note("BOUNTY-REF-NOTIFY", `{"type": "round_open", "round": N, "challenge_id": ID}`, w.clip(posts[0].Body), "the notice POSTed to notify_url")
	}
	return nil
}

// collectNotices gathers the POSTs to the notify endpoint: it waits up to
// noticeWait for one that is the notice (isNotice), then noticeSettle for
// more, and returns every POST seen.
func (w *world) collectNotices(ctx context.Context, isNotice func(*driver.InboundRequest) bool) []*driver.InboundRequest {
	var posts []*driver.InboundRequest
	deadline, settled := time.Now().Add(noticeWait), false
	for {
		c, cancel := context.WithDeadline(ctx, deadline)
		r, err := w.notices.Next(c)
		cancel()
		if err != nil {
			return posts
		}
		if r.Method != http.MethodPost {
			continue
		}
		posts = append(posts, r)
		if !settled && isNotice(r) {
			deadline, settled = time.Now().Add(noticeSettle), true
		}
	}
}

// namesRound reports a notice body naming the round: its challenge_id
// anywhere, or a top-level round field equal to its number.
func namesRound(body []byte, cid string, round int) bool {
	if bytes.Contains(body, []byte(cid)) {
		return true
	}
	var b struct {
		Round json.Number `json:"round"`
	}
	return json.Unmarshal(body, &b) == nil && b.Round.String() == fmt.Sprint(round)
}

// noRoundOpenNotice: a notify_url cleared with "" before the win is owed
// no notice for the round the win opened (BOUNTY-PROFILE-NOTIFY: "empty
// string clears it"). A POST naming that round, or saying round_open, is
// such a notice; one arriving after noticeWait is not seen, so a late
// notice escapes rather than a prompt platform failing.
func (w *world) noRoundOpenNotice(ctx context.Context) error {
	cid, round, err := w.live(ctx)
	if err != nil {
		return err
	}
	about := func(r *driver.InboundRequest) bool {
		return r.Method == http.MethodPost && (namesRound(r.Body, cid, round) || bytes.Contains(r.Body, []byte("round_open")))
	}
	for _, r := range w.collectNotices(ctx, about) {
		if about(r) {
			return verdict.Failf("BOUNTY-PROFILE-NOTIFY", "no notice at a notify_url cleared with \"\"", w.clip(r.Body),
				"round %d (%s) opened after the clear", round, cid)
		}
	}
	return nil
}
