package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// roundActs are what the runner itself did in one round, counted from its
// own requests and their answers: what that round's metrics must count
// (BOUNTY-METRICS-COUNTS).
type roundActs struct {
	solvesAccepted int            // accepted solve attempts
	solvesNew      int            // accepted solves of a share the agent did not hold yet
	solvesRejected int            // refused solve attempts
	combines       int            // combine attempts, the win included
	rejectedBy     map[string]int // refused combines by code
	listEvents     int            // first listings of an agent in the round
	solved         map[string]bool
	listed         map[string]bool
}

// noteAct counts one answered request in its round's acts.
func (c *client) noteAct(method, path string, body any, resp *driver.Response) {
	cid, tail, ok := challengeOf(path)
	if !ok || method != http.MethodPost {
		return
	}
	if c.acts == nil {
		c.acts = map[string]*roundActs{}
	}
	a := c.acts[cid]
	if a == nil {
		a = &roundActs{rejectedBy: map[string]int{}, solved: map[string]bool{}, listed: map[string]bool{}}
		c.acts[cid] = a
	}
	var req struct {
		AgentID string `json:"agent_id"`
		Share   int    `json:"share_index"`
		Remove  bool   `json:"remove"`
	}
	raw, _ := json.Marshal(body)
	_ = json.Unmarshal(raw, &req)
	ok2xx := resp.Status/100 == 2
	switch tail {
	case "solve":
		a.noteSolve(req.AgentID, req.Share, ok2xx)
	case "combine":
		a.combines++
		if !ok2xx {
			var r refusal
			_ = json.Unmarshal(resp.Body, &r)
			a.rejectedBy[r.Code]++
		}
	case "peers":
		if ok2xx && !req.Remove && !a.listed[req.AgentID] {
			a.listed[req.AgentID] = true
			a.listEvents++
		}
	}
}

func (a *roundActs) noteSolve(agentID string, share int, accepted bool) {
	if !accepted {
		a.solvesRejected++
		return
	}
	a.solvesAccepted++
	key := fmt.Sprintf("%s/%d", agentID, share)
	if !a.solved[key] {
		a.solved[key] = true
		a.solvesNew++
	}
}

// figure is one figure research_telemetry says metrics publish, found by
// the words of its path (lower case, any separator) in whatever layout the
// target uses: the contract names the figures, not the fields.
type figure struct {
	name string
	all  []string // words the path holds
	none []string // words it must not hold
	want []int    // the values the contract's readings allow
	own  bool     // only the run's own acts move it (the repeated game of a round the kit won)
}

// leaves flattens a JSON document into lower-case path -> number.
func leaves(v any, path string, out map[string]float64) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			leaves(c, path+"."+strings.ToLower(k), out)
		}
	case float64:
		out[path] = t
	}
}

// find lists the values of the leaves f names.
func (f figure) find(ls map[string]float64) []float64 {
	var out []float64
	for p, v := range ls {
		if holdsAll(p, f.all) && !holdsAny(p, f.none) {
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

func holdsAll(p string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(p, w) {
			return false
		}
	}
	return true
}

func holdsAny(p string, words []string) bool {
	for _, w := range words {
		if strings.Contains(p, w) {
			return true
		}
	}
	return false
}

// figures are the counts a round's metrics publish, with the values the
// run's own acts in it allow (wonBefore, pairsBefore: the repeated game;
// carried: listings carried into the round, which a deployment may or may
// not count as its list events).
func (a *roundActs) figures(wonBefore, pairsBefore, carried int) []figure {
	out := []figure{
		{"accepted solves", []string{"solve", "accept"}, []string{"first"}, []int{a.solvesAccepted, a.solvesNew}, false},
		{"rejected solves", []string{"solve", "reject"}, nil, []int{a.solvesRejected}, false},
		{"combine attempts", []string{"combine"}, []string{"reject", "accept", "fail", "code", "won", "win"}, []int{a.combines}, false},
		{"list events", []string{"list", "event"}, nil, []int{a.listEvents, a.listEvents + carried}, false},
		{"winners who had won before", []string{"winner", "before"}, nil, []int{wonBefore}, true},
		{"pairs who had won together before", []string{"pair", "before"}, nil, []int{pairsBefore}, true},
	}
	return append(out, a.refusalFigures()...)
}

// refusalFigures are the refused combines by the code each was refused
// with, one figure per code the run met: "every combine attempt with its
// outcome (including solo and undersized-coalition rejections)"
// (BOUNTY-METRICS-COUNTS), so an undersized coalition's code is counted
// like a bad reconstruction's. A code the target's metrics do not name
// is unchecked, as every figure is.
func (a *roundActs) refusalFigures() []figure {
	codes := make([]string, 0, len(a.rejectedBy))
	for code := range a.rejectedBy {
		if code != "" {
			codes = append(codes, code)
		}
	}
	sort.Strings(codes)
	out := make([]figure, 0, len(codes))
	for _, code := range codes {
		out = append(out, figure{code + " combines", []string{"combine", strings.ToLower(code)}, nil, []int{a.rejectedBy[code]}, false})
	}
	return out
}

// metricsCount reads round cid's metrics and compares every figure it
// can find with the run's own acts in that round (BOUNTY-METRICS-COUNTS);
// a figure the target names under no recognisable path is unchecked, and
// if none is found the check skips saying so. On a target on this machine
// (the embedded reference, a fresh serve) the run's acts are the round's
// only acts, so every figure is exact; on a deployment elsewhere other
// players may solve, combine and list in the same round, so those counts
// are lower bounds, while the repeated game of a round the kit's coalition
// won counts only its winners and stays exact.
func (w *world) metricsCount(ctx context.Context, cid string, wonBefore, pairsBefore, carried int) error {
	a := w.acts[cid]
	if a == nil {
		return verdict.Errorf("the run did nothing in %s", cid)
	}
	resp, err := w.call(ctx, http.MethodGet, "/challenge/"+cid+"/metrics", nil)
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Failf("BOUNTY-CLOSED-READABLE", 200, resp.Status, "metrics of %s", cid)
	}
	var doc any
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		return verdict.Failf("BOUNTY-METRICS-COUNTS", "a JSON object", w.clip(resp.Body), "metrics")
	}
	ls := map[string]float64{}
	leaves(doc, "", ls)
	found, missing := 0, []string{}
	for _, f := range a.figures(wonBefore, pairsBefore, carried) {
		got := f.find(ls)
		if len(got) == 0 {
			missing = append(missing, f.name)
			continue
		}
		found++
		if !f.fits(got, w.env.Elsewhere()) {
			return verdict.Failf("BOUNTY-METRICS-COUNTS", fmt.Sprintf("%s: %v (what the run did in %s)", f.name, f.want, cid), got, "metrics %s", w.clip(resp.Body))
		}
	}
	if err := timingsOrdered(ls); err != nil {
		return err
	}
	if found == 0 {
		return verdict.Skipf("the metrics name none of the figures research_telemetry lists under a recognisable path (%s): unchecked", strings.Join(missing, ", "))
	}
	return nil
}

// fits reports whether a found value is one the run's acts allow: equal
// to a reading, or, where others may add (shared and the figure not
// only the run's own), at least the least of them.
func (f figure) fits(got []float64, shared bool) bool {
	if !shared || f.own {
		return anyEquals(got, f.want)
	}
	least := slices.Min(f.want)
	return slices.ContainsFunc(got, func(g float64) bool { return g >= float64(least) })
}

func anyEquals(got []float64, want []int) bool {
	for _, g := range got {
		for _, v := range want {
			if g == float64(v) {
				return true
			}
		}
	}
	return false
}

// timingsOrdered: the first solve comes no later than the win, and no
// timing is negative, where both are found.
func timingsOrdered(ls map[string]float64) error {
	first := figure{all: []string{"first", "solve"}}.find(ls)
	win := figure{all: []string{"win"}, none: []string{"winner", "before", "pair", "won"}}.find(ls)
	if len(first) != 1 || len(win) != 1 {
		return nil
	}
	if first[0] < 0 || win[0] < first[0] {
		return verdict.Failf("BOUNTY-METRICS-COUNTS", "0 <= first solve <= win", fmt.Sprintf("first solve %v, win %v", first[0], win[0]), "timings of the round")
	}
	return nil
}

// winNextRound plays the next round with the same coalition: the team
// solves the pairs' shares in the live round and combines them, so the
// repeated game has a second win (BOUNTY-METRICS-COUNTS).
func (w *world) winNextRound(ctx context.Context, pairs string) error {
	w.wonFirst = w.closed
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	list, err := parsePairs(pairs)
	if err != nil {
		return verdict.Errorf("%v", err)
	}
	for _, p := range list {
		if err := w.solveShare(ctx, p[0], p[1]); err != nil {
			return err
		}
	}
	w.won = nil
	if err := w.combine(ctx, pairs, 0); err != nil {
		return err
	}
	if w.won == nil {
		return verdict.Failf("BOUNTY-PAYOUT", "the coalition wins its second round", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// metricsOfBothRounds: the first round's metrics count what the run did
// there with no winner who had won before; the second round's count its
// acts there with every winner, and every pair of them, having won before.
func (w *world) metricsOfBothRounds(ctx context.Context) error {
	if w.wonFirst == "" {
		return verdict.Errorf("the scenario won no second round")
	}
	if err := w.metricsCount(ctx, w.wonFirst, 0, 0, 0); err != nil {
		return err
	}
	n := len(w.team)
	return w.metricsCount(ctx, w.closed, n, n*(n-1)/2, n)
}
