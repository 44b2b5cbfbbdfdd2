package server

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/phantompress/engine"
	"github.com/agentgames/conformance/reference/skeleton"
)

// TestActionEncodingMatchesEncodingJSON: the hand-written action answer is
// byte for byte what writeJSON's encoder writes for it, after every kind
// of action (looks, reads, interviews, answers, comments, refusals, the
// end of a run and its settlement) on generated cases, and for any text
// and nil or empty lists in its fields.
func TestActionEncodingMatchesEncodingJSON(t *testing.T) {
	packs := New(skeleton.Config{Seed: 1}).packs
	t.Run("played", rapid.MakeCheck(func(t *rapid.T) {
		cases, err := engine.Generate(packs, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)))
		if err != nil {
			t.Fatal(err)
		}
		run := engine.NewRun("run_0123456789ab", rapid.IntRange(1, 40).Draw(t, "budget"), cases, rapid.Bool().Draw(t, "seeded"))
		var cache caseCache // one run's cache across its answers, as the server keeps it
		for range rapid.IntRange(1, 60).Draw(t, "actions") {
			act, arg := drawAction(t)
			res, err := run.Act(act, arg)
			if err != nil {
				continue
			}
			sameAction(t, ActionResponse{OK: res.OK, Turn: run.Turn, Narrative: res.Narrative, State: run.State(),
				Events: res.Events, AvailableActions: run.Available(), Code: res.Code, Error: res.Error}, &cache)
		}
	}))
	t.Run("any text", rapid.MakeCheck(func(t *rapid.T) {
		str := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "<a&b>", "\u2028", "\xff", "\"\\\n\x00", "校閲"}))
		list := rapid.OneOf(rapid.Just([]string(nil)), rapid.SliceOf(str))
		cv := engine.CaseView{Title: str.Draw(t, "title"), Brief: str.Draw(t, "brief"),
			Questions: rapid.SampledFrom([][]engine.Question{nil, {}, {{ID: str.Draw(t, "q"), Text: str.Draw(t, "text")}}}).Draw(t, "questions"),
			Witnesses: rapid.SampledFrom([][]engine.WitnessView{nil, {}, {{Name: str.Draw(t, "name")}}, {{Topics: []engine.TopicView{{Title: str.Draw(t, "topic"), Interviewed: true}}}}}).Draw(t, "witnesses")}
		out := ActionResponse{OK: rapid.Bool().Draw(t, "ok"), Turn: rapid.Int().Draw(t, "turn"), Narrative: str.Draw(t, "narrative"),
			State: engine.StateView{RunID: str.Draw(t, "run"), Case: cv, HedgeOnly: list.Draw(t, "hedge"), Acquired: list.Draw(t, "acquired"),
				Answers:    rapid.SampledFrom([]map[string]engine.Answer{nil, {}, {"q2": {Question: "q2"}, "q1": {Sources: []string{}}}}).Draw(t, "answers"),
				Rejections: rapid.SampledFrom([]map[string]int{nil, {}, {"q1": 2, "<q>": 0}}).Draw(t, "rejections")},
			Events: rapid.SampledFrom([][]engine.Event{nil, {}, {{Type: "look", Case: &cv}, {Type: "answer", Rejections: -1, Text: "<x>",
				Answer: &engine.Answer{Question: "q1"}, Document: &engine.Document{}, Testimony: &engine.Testimony{}, Settlement: &engine.Settlement{}}}}).Draw(t, "events"),
			AvailableActions: list.Draw(t, "available"), Code: str.Draw(t, "code"), Error: str.Draw(t, "error")}
		sameAction(t, out, nil)
	}))
}

// drawAction draws an action and argument an agent might send, valid or not.
func drawAction(t *rapid.T) (string, string) {
	act := rapid.SampledFrom([]string{engine.ActLook, engine.ActRead, engine.ActInterview, engine.ActAnswer, engine.ActStatus, engine.ActComment}).Draw(t, "act")
	arg := rapid.SampledFrom([]string{"", "d1", "d2", "d3", "d9", "w1 t1", "w2 t2", "w1:t2", "q1 真 断言 d1", "q2 false hedge w1:t1",
		"q3 unverifiable assert", "q1 true", "いい記事 <b>", "x"}).Draw(t, "arg")
	return act, arg
}

// sameAction fails unless appendAction writes what writeJSON's encoder
// writes, with the run's case view cache cases and without one.
func sameAction(t *rapid.T, out ActionResponse, cases *caseCache) {
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*caseCache{cases, nil} {
		if got := appendAction(nil, out, c); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("hand-written encoding differs (cache %v):\n got %s\nwant %s", c != nil, got, want.Bytes())
		}
	}
}
