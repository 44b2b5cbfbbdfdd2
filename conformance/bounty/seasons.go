package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// seasonEnder is the embedded reference's season control: the contract
// names no route that ends a season, so only the reference's own control
// can (BOUNTY-SEASONS).
type seasonEnder interface{ EndSeason() }

// seasonControl is the embedded reference's season control; against a
// live target it is the control's skip, before the scenario writes
// anything, since a client cannot end a season.
func (w *world) seasonControl() (seasonEnder, error) {
	if _, err := w.env.Control(); err != nil {
		return nil, err
	}
	ender, ok := w.env.Reference.(seasonEnder)
	if !ok {
		return nil, verdict.Skipf("unchecked: this reference has no season control")
	}
	return ender, nil
}

// canEndSeason is the scenario's first step: the season control, or its
// skip.
func (w *world) canEndSeason() error {
	_, err := w.seasonControl()
	return err
}

// endSeason reads the standings of the season in play, then ends it
// through the embedded reference's control.
func (w *world) endSeason(ctx context.Context) error {
	ender, err := w.seasonControl()
	if err != nil {
		return err
	}
	list, err := w.standings(ctx)
	if err != nil {
		return err
	}
	w.endedSeason = list
	ender.EndSeason()
	return nil
}

// standings reads the leaderboard's standings in any layout standingsOf
// accepts; a layout it cannot read leaves the check unchecked.
func (w *world) standings(ctx context.Context) ([]standingDoc, error) {
	resp, err := w.call(ctx, http.MethodGet, "/leaderboard.json", nil)
	if err != nil {
		return nil, err
	}
	if resp.Status/100 != 2 {
		return nil, verdict.Failf("BOUNTY-LEADERBOARD", "2xx", resp.Status, "GET /leaderboard.json: %s", w.clip(resp.Body))
	}
	w.lastBoardBody = resp.Body
	list, _, ok := standingsOf(resp.Body)
	if !ok {
		return nil, verdict.Skipf("unchecked: the leaderboard shows no list of standings with an agent id, PLAY earned, rounds won and accepted solves")
	}
	return list, nil
}

// seasonReset judges BOUNTY-SEASONS after the season ended: every
// standing of the new season is back at zero ("Standings reset each
// season"), and the ended season's top three (its first three standings
// that recorded anything) are kept. Where the leaderboard keeps them is
// the reference's choice (BOUNTY-REF-PAST-SEASONS): the reset is judged
// first, then a podium the runner cannot find is a note, never a failure.
func (w *world) seasonReset(ctx context.Context) error {
	if w.endedSeason == nil {
		return verdict.Errorf("no season was ended in this scenario")
	}
	list, err := w.standings(ctx)
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.PlayEarned != 0 || s.RoundsWon != 0 || s.AcceptedSolves != 0 {
			return verdict.Failf("BOUNTY-SEASONS", "every standing at zero in the new season",
				fmt.Sprintf("%s: %v PLAY, %v rounds won, %v solves", s.AgentID, s.PlayEarned, s.RoundsWon, s.AcceptedSolves), "the leaderboard after the season ended")
		}
	}
	want := podium(w.endedSeason)
	if len(want) == 0 {
		return verdict.Errorf("the ended season's standings recorded nothing: no podium to look for")
	}
	kept, found := lastPodium(w.lastBoardBody)
	if !found {
		w.note("BOUNTY-REF-PAST-SEASONS", "past_seasons: [{season, top_three: [...]}]", w.clip(w.lastBoardBody), "the leaderboard after the season ended")
		return verdict.Skipf("unchecked: the leaderboard shows no past season the runner can read, so the top three kept are unchecked")
	}
	if !slices.Equal(kept, want) {
		return verdict.Failf("BOUNTY-SEASONS", want, kept, "the ended season's top three, as its standings ranked them before it ended")
	}
	return nil
}

// podium is the agent ids of a season's top three standings that recorded
// anything.
func podium(list []standingDoc) []string {
	var out []string
	for _, s := range list {
		if len(out) < 3 && (s.PlayEarned != 0 || s.RoundsWon != 0 || s.AcceptedSolves != 0) {
			out = append(out, s.AgentID)
		}
	}
	return out
}

// lastPodium reads the agent ids of the most recently ended season's top
// three in the reference's layout (BOUNTY-REF-PAST-SEASONS).
func lastPodium(body []byte) ([]string, bool) {
	var doc struct {
		Past []struct {
			Season   int                          `json:"season"`
			TopThree []map[string]json.RawMessage `json:"top_three"`
		} `json:"past_seasons"`
	}
	if json.Unmarshal(body, &doc) != nil || len(doc.Past) == 0 {
		return nil, false
	}
	last := doc.Past[0]
	for _, p := range doc.Past {
		if p.Season > last.Season {
			last = p
		}
	}
	ids := []string{}
	for _, e := range last.TopThree {
		var id string
		if json.Unmarshal(firstOf(e, standingID), &id) != nil {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, true
}
