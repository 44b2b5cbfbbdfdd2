package pyyol

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Normalize, then judge: the bodies a platform pushes, read through one
// tolerant decoder. The docs fix the fields (the turn view's, {seq, type,
// payload}, the final result) but not the nesting, so a view at the top
// level of the /turn body (the real platform's) or under "view" or
// "payload", an event type under "type" or "kind", a result under "result"
// or at the top level are all read; the judges see only the model, except
// where the docs name the field itself: an /event's "type" and the
// /game-end's "result" (judgeEventBody, judgeGameEnd), which the SDK reads
// by those names alone.

// turnView is what the kit reads of a /turn body.
type turnView struct {
	ok      bool // a view with legal actions was found
	game    string
	seat    int
	round   int
	hand    []int
	history []playedRound
}

// playedRound is one resolved round as a view or a result tells it: the
// card the kit's seat played.
type playedRound struct {
	round int
	card  int
}

// highest is the hand's highest card (0 for an empty hand).
func (v turnView) highest() int {
	if len(v.hand) == 0 {
		return 0
	}
	return slices.Max(v.hand)
}

// lowest is the hand's lowest card, the documented fallback.
func (v turnView) lowest() int {
	if len(v.hand) == 0 {
		return 0
	}
	return slices.Min(v.hand)
}

// decodeObject reads a JSON object with numbers kept exact; nil if the
// body is not one.
func decodeObject(raw []byte) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// readTurnView reads a /turn body: the view at the top level or wrapped.
func readTurnView(raw []byte) turnView {
	body := decodeObject(raw)
	v := turnView{round: -1, seat: -1}
	if body == nil {
		return v
	}
	v.game, _ = body["game"].(string)
	view := body
	for _, key := range []string{"view", "payload", "state"} {
		if inner, ok := body[key].(map[string]any); ok && inner["legal_actions"] != nil {
			view = inner
		}
	}
	v.round, v.seat = intOr(view["round"], -1), intOr(view["seat"], -1)
	v.hand = ints(view["legal_actions"])
	if len(v.hand) == 0 {
		v.hand = ints(view["your_hand"])
	}
	v.ok = view["legal_actions"] != nil
	for _, h := range list(view["history"]) {
		if m, ok := h.(map[string]any); ok && m["your_card"] != nil {
			v.history = append(v.history, playedRound{intOr(m["round"], -1), intOr(m["your_card"], -1)})
		}
	}
	return v
}

// resultRounds reads the cards seat played from a /game-end body's result
// (under "result" or at the top level; history rows with cards by seat).
func resultRounds(raw []byte, seat int) []playedRound {
	body := decodeObject(raw)
	if body == nil {
		return nil
	}
	res := body
	if inner, ok := body["result"].(map[string]any); ok {
		res = inner
	}
	var out []playedRound
	for _, h := range list(res["history"]) {
		m, ok := h.(map[string]any)
		if !ok {
			continue
		}
		if cards := ints(m["cards"]); seat >= 0 && seat < len(cards) {
			out = append(out, playedRound{intOr(m["round"], -1), cards[seat]})
		} else if m["your_card"] != nil {
			out = append(out, playedRound{intOr(m["round"], -1), intOr(m["your_card"], -1)})
		}
	}
	return out
}

// pushEventFields reads an /event body: seq, and type (or kind), and whether
// a payload is there.
func pushEventFields(raw []byte) (seq int, typ string, payload bool, ok bool) {
	body := decodeObject(raw)
	if body == nil {
		return 0, "", false, false
	}
	typ, _ = body["type"].(string)
	if typ == "" {
		typ, _ = body["kind"].(string)
	}
	_, payload = body["payload"]
	return intOr(body["seq"], -1), typ, payload, true
}

func intOr(v any, def int) int {
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return int(i)
		}
	case float64:
		return int(n)
	}
	return def
}

func ints(v any) []int {
	var out []int
	for _, x := range list(v) {
		if i := intOr(x, -1<<31); i != -1<<31 {
			out = append(out, i)
		}
	}
	return out
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}
