package server

import (
	"encoding/json"
	"testing"
)

// TestARewriteOfOneFrameTypeSeesOnlyThose: a Rewrite naming a frame type
// is handed those frames only, decoded; every other frame goes out as the
// gateway encoded it, byte for byte, and is never decoded.
func TestARewriteOfOneFrameTypeSeesOnlyThose(t *testing.T) {
	seen := 0
	g := &Gateway{opts: Options{Rewrite: Rewrite{Frame: "turn", Edit: func(f map[string]any) []map[string]any {
		seen++
		f["edited"] = true
		return []map[string]any{f}
	}}}}
	ping := Frame{T: "ping"}
	out, err := g.rewrite(ping)
	want, _ := json.Marshal(ping)
	if err != nil || len(out) != 1 || string(out[0]) != string(want) || seen != 0 {
		t.Fatalf("a ping through a turn rewrite: %q, %v, edit called %d times", out, err, seen)
	}
	out, err = g.rewrite(Frame{T: "turn", ID: "t1"})
	var got map[string]any
	if err != nil || len(out) != 1 || json.Unmarshal(out[0], &got) != nil || got["edited"] != true || seen != 1 {
		t.Fatalf("a turn through a turn rewrite: %q, %v, edit called %d times", out, err, seen)
	}
	// "turn" is no prefix match of another type.
	if !(Rewrite{Frame: "turn"}).skips([]byte(`{"t":"turnover"}`)) || (Rewrite{Frame: "turn"}).skips([]byte(`{"id":"x","t":"turn"}`)) {
		t.Error("skips reads the type by its whole name, and decodes what it cannot read")
	}
}
