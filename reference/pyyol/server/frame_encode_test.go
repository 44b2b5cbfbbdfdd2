package server

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// TestEncodeFrameIsJSONMarshal: the frames the gateway writes by hand are
// json.Marshal's bytes exactly, for any strings (HTML characters, control
// characters, invalid UTF-8 and U+2028 among them) and any payload the
// frame constructors build.
func TestEncodeFrameIsJSONMarshal(t *testing.T) {
	text := rapid.OneOf(rapid.String(), rapid.StringMatching(`[a-z_0-9<>&"\\ ]{0,12}`), rapid.SampledFrom([]string{"", "\u2028", "\xff", "a\tb"}))
	rapid.Check(t, func(t *rapid.T) {
		view := map[string]any{"phase": text.Draw(t, "phase"), "legal_actions": rapid.SliceOf(text).Draw(t, "legal"),
			"n": rapid.IntRange(-5, 1<<40).Draw(t, "n"), text.Draw(t, "key"): rapid.Bool().Draw(t, "flag")}
		var f Frame
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			f = turnFrame(text.Draw(t, "id"), text.Draw(t, "game"), text.Draw(t, "match"), view)
		case 1:
			f = initializeFrame(text.Draw(t, "id"), text.Draw(t, "game"), text.Draw(t, "match"), view)
		case 2:
			f = eventFrame(text.Draw(t, "game"), text.Draw(t, "match"), rapid.IntRange(0, 9999).Draw(t, "seq"), text.Draw(t, "kind"), view)
		default:
			f = gameEndFrame(text.Draw(t, "game"), text.Draw(t, "match"), rapid.IntRange(-1, 7).Draw(t, "seat"), view)
		}
		f.AgentID, f.Error, f.Reason = text.Draw(t, "agent"), text.Draw(t, "error"), text.Draw(t, "reason")
		f.Games, f.Matches = rapid.SliceOf(text).Draw(t, "games"), rapid.IntRange(0, 3).Draw(t, "matches")
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeFrame(f)
		if err != nil || string(got) != string(want) {
			t.Fatalf("encodeFrame\n got %s (%v)\nwant %s", got, err, want)
		}
	})
}

// TestAFrameWithoutItsOwnPayloadGoesThroughJSON: a payload encoding/json
// did not write (spaces, a literal) is compacted as json.Marshal does.
func TestAFrameWithoutItsOwnPayloadGoesThroughJSON(t *testing.T) {
	f := Frame{T: "turn", Payload: json.RawMessage(`{ "a" : 1 }`)}
	got, err := encodeFrame(f)
	if err != nil || string(got) != `{"t":"turn","payload":{"a":1}}` {
		t.Fatalf("got %s (%v)", got, err)
	}
}
