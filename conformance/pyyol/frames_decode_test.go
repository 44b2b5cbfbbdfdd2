package pyyol

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDecodeJSONAcceptsWhatEncodingJSONAccepts: the one decode a frame
// gets refuses exactly what json.Unmarshal into an any refuses, a number
// beyond float64 included.
func TestDecodeJSONAcceptsWhatEncodingJSONAccepts(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"t":"hello"}`, `[1,2]`, `1e308`, `1e400`, `{"a":[{"b":-1e999}]}`, `1e-400`, `{"a":1} x`,
		`{"a":1}  `, ``, `{`, `"\ud800"`, `{"a":1,"a":2}`, `12345678901234567890123`,
	} {
		var v any
		want := json.Unmarshal([]byte(raw), &v) == nil
		_, err := decodeJSON([]byte(raw))
		if got := err == nil; got != want {
			t.Errorf("%q: decodeJSON accepts %v, json.Unmarshal %v (%v)", raw, got, want, err)
		}
	}
}

// TestDecoderReadsEveryLayout: the platform's layout and the kit's
// earlier one decode to the same model; only the earlier one is noted.
func TestDecoderReadsEveryLayout(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, sdk, earlier string
	}{
		{"turn", `{"t":"turn","id":"1","payload":{"game":"goofspiel","match_id":"m","seat":1,"round":2,"legal_actions":[3]}}`,
			`{"t":"turn","id":"1","game":"goofspiel","match_id":"m","view":{"seat":1,"round":2,"legal_actions":[3]}}`},
		{"initialize", `{"t":"initialize","id":"i","payload":{"game":"mafia","match_id":"m","seat":4,"players":12}}`,
			`{"t":"initialize","id":"i","game":"mafia","match_id":"m","seat":4,"players":12}`},
		{"event", `{"t":"event","game":"mafia","match_id":"m","seq":3,"kind":"vote","payload":{"from":1}}`,
			`{"t":"event","match_id":"m","seq":3,"type":"vote","payload":{"from":1}}`},
		{"game_end", `{"t":"game_end","game":"goofspiel","match_id":"m","payload":{"seat":1,"winner":0,"history":[{"round":0,"cards":[5,4],"your_card":4,"opp_card":5}]}}`,
			`{"t":"game_end","game":"goofspiel","match_id":"m","seat":1,"result":{"seat":1,"winner":0,"history":[{"round":0,"your_card":4,"opp_card":5}]}}`},
	}
	for _, c := range cases {
		a, noteA, errA := decodeFrame([]byte(c.sdk))
		b, noteB, errB := decodeFrame([]byte(c.earlier))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", c.name, errA, errB)
		}
		if len(noteA) != 0 || len(noteB) == 0 {
			t.Errorf("%s: notes %v for the platform's layout, %v for the earlier one", c.name, noteA, noteB)
		}
		if a.MatchID != "m" || b.MatchID != "m" || a.Type != b.Type || (a.Seat == nil) != (b.Seat == nil) || (a.Seat != nil && *a.Seat != *b.Seat) {
			t.Errorf("%s: %+v vs %+v", c.name, a, b)
		}
		if c.name == "turn" && (a.View == nil || b.View == nil || a.View.Round != 2 || b.View.Round != 2) {
			t.Errorf("turn views %+v %+v", a.View, b.View)
		}
		if c.name == "game_end" && !strings.Contains(string(b.Result), `"cards":[5,4]`) {
			t.Errorf("seat cards not filled: %s", b.Result)
		}
	}
}
