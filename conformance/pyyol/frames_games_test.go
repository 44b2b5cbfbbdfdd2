package pyyol

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
	"github.com/agentgames/conformance/spec"
)

// ruleOfErr is the rule a check's failure names ("" for none).
func ruleOfErr(err error) string {
	var f *verdict.Failure
	if errors.As(err, &f) {
		return f.RuleID
	}
	return ""
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestReferenceMonopolyFitsItsSchemas: every view, move and event of a
// whole bot-played reference Monopoly game fits the schemas, as turn and
// event frames too.
func TestReferenceMonopolyFitsItsSchemas(t *testing.T) {
	t.Parallel()
	g, err := monopoly.New(monopoly.DefaultRules(), 11)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; !g.Over() && n < 5000; n++ {
		actor := g.Actor()
		view := mustJSON(t, g.View(actor))
		if err := checkPart("monopoly-view", view, "", "view"); err != nil {
			t.Fatalf("view %d: %v", n, err)
		}
		turn := `{"t":"turn","id":"x","match_id":"m","game":"monopoly","view":` + string(view) + `}`
		if err := checkFrameOf(json.RawMessage(turn), "turn", "monopoly"); err != nil {
			t.Fatalf("turn frame %d: %v", n, err)
		}
		mv := g.Bot(actor)
		if err := checkPart("monopoly-move", mustJSON(t, mv), "", "move"); err != nil {
			t.Fatalf("move %d: %v", n, err)
		}
		g.Apply(actor, mv)
	}
	for _, e := range g.EventsAfter(0) {
		frame := mustJSON(t, map[string]any{"t": "event", "match_id": "m", "seq": e.Seq, "type": e.Type, "payload": e.Payload})
		if err := checkFrameOf(frame, "event", "monopoly"); err != nil {
			t.Fatalf("event %d: %v", e.Seq, err)
		}
	}
}

// TestReferenceMafiaFitsItsSchemas: every seat's view and move of a whole
// baseline Mafia match, and every public event, fit the schemas.
func TestReferenceMafiaFitsItsSchemas(t *testing.T) {
	t.Parallel()
	m := mafia.New([]byte("schemas"))
	for n := 0; !m.Done() && n < 2000; n++ {
		for _, s := range m.Waiting() {
			v := m.View(s)
			raw := mustJSON(t, v)
			turn := `{"t":"turn","id":"x","match_id":"m","game":"mafia","view":` + string(raw) + `}`
			if err := checkFrame(json.RawMessage(turn), "turn"); err != nil {
				t.Fatalf("seat %d view: %v", s, err)
			}
			mv := mafia.Baseline(v)
			if err := checkPart("mafia-move", mustJSON(t, mv), "", "move"); err != nil {
				t.Fatalf("seat %d move %s: %v", s, mustJSON(t, mv), err)
			}
			if m.Act(s, mv) != nil {
				m.Fallback(s)
			}
		}
	}
	for _, e := range m.PublicAfter(0) {
		frame := mustJSON(t, map[string]any{"t": "event", "match_id": "m", "seq": e.Seq, "type": e.Type, "payload": e.Payload})
		if err := checkFrame(frame, "event"); err != nil {
			t.Fatalf("event %d: %v", e.Seq, err)
		}
	}
}

// TestGameSchemasNameTheRuleBroken: a malformed part fails naming the rule
// of the field it breaks.
func TestGameSchemasNameTheRuleBroken(t *testing.T) {
	t.Parallel()
	g, _ := monopoly.New(monopoly.DefaultRules(), 3)
	mono := string(mustJSON(t, g.View(0)))
	phase, legal := `"phase":"`+g.View(0).Phase+`"`, string(mustJSON(t, g.View(0).LegalActions))
	m := mafia.New([]byte("rules"))
	town := -1
	for s := range mafia.Seats {
		if m.Role(s) != mafia.Mafia {
			town = s
			break
		}
	}
	maf := string(mustJSON(t, m.View(town)))
	cases := []struct{ name, schema, raw, rule string }{
		{"monopoly seat", "monopoly-view", strings.Replace(mono, `"seat":0`, `"seat":"0"`, 1), "PYYOL-MONO-VIEW-SEAT"},
		{"monopoly phase", "monopoly-view", strings.Replace(mono, phase, `"phase":"rolling"`, 1), "PYYOL-MONO-VIEW-PHASE"},
		{"monopoly legal", "monopoly-view", strings.Replace(mono, `"legal_actions":`+legal, `"legal_actions":"roll"`, 1), "PYYOL-MONO-VIEW-LEGAL"},
		{"monopoly state", "monopoly-view", strings.Replace(mono, `"players":`, `"seats":`, 1), "PYYOL-MONO-VIEW-STATE"},
		{"monopoly no state", "monopoly-view", `{"seat":0,"phase":"roll","legal_actions":["roll"]}`, "PYYOL-MONO-VIEW-STATE"},
		{"monopoly action", "monopoly-move", `{"action":"fly"}`, "PYYOL-MONO-MOVE-ACTION"},
		{"monopoly no action", "monopoly-move", `{"property":3}`, "PYYOL-MONO-MOVE-ACTION"},
		{"monopoly property", "monopoly-move", `{"action":"mortgage"}`, "PYYOL-MONO-MOVE-PROPERTY"},
		{"monopoly off board", "monopoly-move", `{"action":"build","property":40}`, "PYYOL-MONO-MOVE-PROPERTY"},
		{"monopoly amount", "monopoly-move", `{"action":"bid","amount":"ten"}`, "PYYOL-MONO-MOVE-AMOUNT"},
		{"monopoly no amount", "monopoly-move", `{"action":"bid"}`, "PYYOL-MONO-MOVE-AMOUNT"},
		{"monopoly trade", "monopoly-move", `{"action":"propose_trade","trade":{"target":1}}`, "PYYOL-MONO-MOVE-TRADE"},
		{"monopoly no trade", "monopoly-move", `{"action":"propose_trade"}`, "PYYOL-MONO-MOVE-TRADE"},
		{"monopoly event", "monopoly-event", `{"seq":1,"type":"hotel_razed","payload":{}}`, "PYYOL-MONO-EVENTS"},
		{"mafia role case", "mafia-view", strings.Replace(maf, `"your_role":"`+m.Role(town)+`"`, `"your_role":"`+strings.ToLower(m.Role(town))+`"`, 1), "PYYOL-MAFIA-ROLE-CASE"},
		{"mafia town allies", "mafia-view", strings.Replace(maf, `"legal":`, `"allies":[1],"legal":`, 1), "PYYOL-MAFIA-ALLIES"},
		{"mafia alive", "mafia-view", strings.Replace(maf, `"alive":{`, `"alive":{"x":true,`, 1), "PYYOL-MAFIA-VIEW"},
		{"mafia no private", "mafia-view", strings.Replace(maf, `"private":[]`, `"privates":[]`, 1), "PYYOL-MAFIA-VIEW"},
		{"mafia night in public", "mafia-view", strings.Replace(maf, `"public":[`, `"public":[{"seq":0,"type":"night","payload":{}},`, 1), "PYYOL-MAFIA-NIGHT-PRIVATE"},
		{"mafia move", "mafia-move", `{"action":"dance"}`, "PYYOL-MAFIA-MOVE"},
		{"mafia untargeted vote", "mafia-move", `{"action":"vote"}`, "PYYOL-MAFIA-MOVE"},
		{"mafia message event", "mafia-event", `{"seq":3,"type":"message","payload":{"from":1,"text":"hi"}}`, "PYYOL-MAFIA-EVENT-MESSAGE"},
		{"mafia vote event", "mafia-event", `{"seq":3,"type":"vote","payload":{"from":1}}`, "PYYOL-MAFIA-EVENT-VOTE"},
		{"mafia phase event", "mafia-event", `{"seq":3,"type":"phase","payload":{"day":1,"phase":"dusk"}}`, "PYYOL-MAFIA-EVENT-PHASE"},
		{"mafia eliminate event", "mafia-event", `{"seq":3,"type":"eliminate","payload":{"target":1}}`, "PYYOL-MAFIA-EVENT-ELIMINATE"},
		{"mafia finding", "mafia-event", `{"seq":1,"type":"night","payload":{"finding":"mafia"}}`, "PYYOL-MAFIA-INVESTIGATE"},
		{"mafia event type", "mafia-event", `{"seq":1,"type":"lynch","payload":{}}`, "PYYOL-MAFIA-EVENTS"},
	}
	for _, c := range cases {
		if c.raw == mono || c.raw == maf {
			t.Errorf("%s: the edit did not apply", c.name)
			continue
		}
		err := checkPart(c.schema, []byte(c.raw), "FALLBACK", c.name)
		if got := ruleOfErr(err); got != c.rule {
			t.Errorf("%s: rule %q, want %q (%v)", c.name, got, c.rule, err)
		}
	}
}

// TestMalformedGameFramesNameTheirRule: through the frame envelope, a
// Monopoly turn whose view is malformed names the view's rule, a Mafia
// event of an undocumented type names Mafia's events rule, and a
// Goofspiel frame's mismatch stays the kit's layout (a warning).
func TestMalformedGameFramesNameTheirRule(t *testing.T) {
	t.Parallel()
	cases := []struct{ raw, t, game, rule string }{
		{`{"t":"turn","id":"1","match_id":"m","game":"monopoly","view":{"seat":0,"phase":"roll","legal_actions":["roll"],"state":{"players":[]}}}`, "turn", "", "PYYOL-MONO-VIEW-STATE"},
		{`{"t":"event","match_id":"m","seq":2,"type":"dice_rolled","payload":[]}`, "event", "monopoly", "PYYOL-MONO-EVENTS"},
		{`{"t":"event","match_id":"m","seq":2,"type":"vote","payload":{"target":3}}`, "event", "", "PYYOL-MAFIA-EVENT-VOTE"},
		{`{"t":"turn","id":"1","match_id":"m","game":"goofspiel","view":{"seat":0}}`, "turn", "", "PYYOL-REF-FRAMES"},
		{`{"t":"game_end","match_id":"m","game":"goofspiel","result":{"winner":0}}`, "game_end", "", "PYYOL-REF-FRAMES"},
	}
	for _, c := range cases {
		if got := ruleOfErr(checkFrameOf(json.RawMessage(c.raw), c.t, c.game)); got != c.rule {
			t.Errorf("%s: rule %q, want %q", c.raw, got, c.rule)
		}
	}
	for _, ok := range []string{
		`{"t":"game_end","match_id":"m","game":"monopoly","result":{"winners":[1]}}`,
		`{"t":"initialize","id":"i","match_id":"m","game":"monopoly","seat":0,"players":4,"rules":{"players":4}}`,
	} {
		var f struct{ T string }
		json.Unmarshal([]byte(ok), &f)
		if err := checkFrame(json.RawMessage(ok), f.T); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestSchemaRulesAreCatalogued: every x-rule and x-required-rule of
// spec/pyyol/frames names a rule of the catalogue, and the schemas
// compiled.
func TestSchemaRulesAreCatalogued(t *testing.T) {
	t.Parallel()
	b := frameBook()
	if b.err != nil {
		t.Fatal(b.err)
	}
	cat, err := spec.Load("pyyol")
	if err != nil {
		t.Fatal(err)
	}
	var walk func(name string, node any)
	walk = func(name string, node any) {
		switch n := node.(type) {
		case map[string]any:
			for k, v := range n {
				if id, ok := v.(string); ok && (k == "x-rule" || k == "x-required-rule") {
					if _, known := cat.Rule(id); !known {
						t.Errorf("%s: %s %q is not catalogued", name, k, id)
					}
				}
				walk(name, v)
			}
		case []any:
			for _, v := range n {
				walk(name, v)
			}
		}
	}
	for name, doc := range b.docs {
		walk(name, doc)
	}
	if len(b.compiled) != len(spec.PyyolSchemaNames()) {
		t.Errorf("compiled %d of %d schemas", len(b.compiled), len(spec.PyyolSchemaNames()))
	}
}
