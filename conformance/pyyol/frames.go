package pyyol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
	"github.com/agentgames/conformance/spec"
)

// frameURL is where schema name is registered with the compiler, so the
// relative $refs between the files of spec/pyyol/frames resolve.
func frameURL(name string) string { return "file:///spec/pyyol/frames/" + name + ".json" }

// schemaBook is every schema of spec/pyyol/frames, compiled by one strict
// JSON Schema 2020-12 validator, with the raw documents kept so a
// failure can be traced to the x-rule annotation it broke.
type schemaBook struct {
	compiled map[string]*jsonschema.Schema
	docs     map[string]any
	err      error
}

var (
	bookOnce sync.Once
	book     schemaBook
)

// frameBook loads and compiles spec/pyyol/frames once.
func frameBook() *schemaBook {
	bookOnce.Do(func() { book = compileFrames() })
	return &book
}

// compileFrames compiles the frame schemas and the games' part schemas.
func compileFrames() schemaBook {
	b := schemaBook{compiled: map[string]*jsonschema.Schema{}, docs: map[string]any{}}
	c := jsonschema.NewCompiler()
	names := spec.PyyolSchemaNames()
	for _, name := range names {
		raw, err := spec.PyyolFrameSchema(name)
		if err != nil {
			b.err = err
			return b
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err == nil {
			err = c.AddResource(frameURL(name), doc)
		}
		if err != nil {
			b.err = fmt.Errorf("schema %s: %w", name, err)
			return b
		}
		b.docs[name] = doc
	}
	for _, name := range names {
		s, err := c.Compile(frameURL(name))
		if err != nil {
			b.err = fmt.Errorf("schema %s: %w", name, err)
			return b
		}
		b.compiled[name] = s
	}
	return b
}

// frameSchemas returns the compiled frame-type schemas (hello, turn, ...).
func frameSchemas() map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	for _, t := range spec.PyyolFrameTypes() {
		if s, ok := frameBook().compiled[t]; ok {
			out[t] = s
		}
	}
	return out
}

// checkFrame validates a gateway frame against the schema of its type,
// the view of a turn against its game's view schema included. A mismatch
// names the rule its schema annotates (x-rule): the MUST rules of the
// Mafia and Monopoly views and events, which fail a check, or
// PYYOL-REF-FRAMES, the kit's own frame layout, which only warns.
func checkFrame(raw json.RawMessage, t string) error {
	return checkFrameOf(raw, t, "")
}

// checkFrameOf is checkFrame for a frame of a match of game (empty when
// unknown): an event frame is also checked against its game's event
// schema, so an undocumented event type names that game's events rule.
func checkFrameOf(raw json.RawMessage, t, game string) error {
	_, err := checkFrameTree(raw, t, game)
	return err
}

// checkFrameTree is checkFrameOf that also returns the frame as
// decodeJSON read it (nil when it is no JSON), so a check that searches a
// frame by value reads it without decoding it again.
func checkFrameTree(raw json.RawMessage, t, game string) (any, error) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, verdict.Failf("PYYOL-WS-ENVELOPE", "JSON", string(raw), "%v", err)
	}
	if _, ok := frameBook().compiled[t]; !ok || !spec.IsPyyolFrameType(t) {
		return v, verdict.Failf("PYYOL-REF-FRAMES", "a documented frame type", t, "frame type %q has no schema", t)
	}
	if t == "event" {
		if err := checkGameEvent(v, game); err != nil {
			return v, err
		}
	}
	return v, checkDecoded(t, v, raw, "PYYOL-REF-FRAMES", "a "+t+" frame")
}

// checkGameEvent checks the {seq, type, payload} of an event frame of a
// Mafia or Monopoly match (told by game or by its type) against that
// game's event schema, before the envelope, so a broken event names the
// game's events rule. v is the frame as decodeJSON read it: the event is
// built from it, not decoded again.
func checkGameEvent(v any, game string) error {
	frame, _ := v.(map[string]any)
	if game == "" {
		game = eventGame(frame)
	}
	if game != "mafia" && game != "monopoly" {
		return nil
	}
	body := map[string]any{}
	for _, k := range []string{"seq", "type", "payload"} {
		if x, ok := frame[k]; ok {
			body[k] = x
		}
	}
	if kind, ok := frame["kind"]; ok {
		// The event's type in kind (agentgw, runtime.py) or type: the
		// game's event schema reads the normalized {seq, type, payload}.
		body["type"] = kind
	}
	event := func() []byte { b, _ := json.Marshal(body); return b }
	return checkDecodedLazy(game+"-event", body, event, eventsRule(game), "a "+game+" event")
}

// eventsRule is the rule naming a game's documented events.
func eventsRule(game string) string {
	if game == "mafia" {
		return "PYYOL-MAFIA-EVENTS"
	}
	return "PYYOL-MONO-EVENTS"
}

// eventGame tells the game of an event frame from a type only one game's
// Events table lists ("" for Goofspiel's and the shared ones).
func eventGame(frame map[string]any) string {
	t, _ := frame["type"].(string)
	if kind, _ := frame["kind"].(string); kind != "" {
		t = kind
	}
	switch {
	case slices.Contains(mafiaEventTypes, t):
		return "mafia"
	case slices.Contains(monopoly.EventTypes, t) && t != monopoly.EvMatchCreated && t != monopoly.EvMatchFinished:
		return "monopoly"
	}
	return ""
}

// checkPart validates raw against spec/pyyol/frames/<name>.json. A
// mismatch fails naming the x-rule nearest the keyword that failed, or
// fallback where the schema names none; what describes the value.
func checkPart(name string, raw []byte, fallback, what string) error {
	if b := frameBook(); b.compiled[name] == nil {
		return verdict.Errorf("the kit has no schema %s: %v", name, b.err)
	}
	// encoding/json's reading (decodeJSON): what a Go client cannot decode
	// (a number out of float64's range) is no valid value either.
	v, err := decodeJSON(raw)
	if err != nil {
		return verdict.Failf(fallback, "JSON", string(raw), "%s: %v", what, err)
	}
	return checkDecoded(name, v, raw, fallback, what)
}

// checkDecoded is checkPart for raw already decoded into v by decodeJSON.
func checkDecoded(name string, v any, raw []byte, fallback, what string) error {
	return checkDecodedLazy(name, v, func() []byte { return raw }, fallback, what)
}

// checkDecodedLazy is checkDecoded for a value whose bytes are only made
// when a failure must show them.
func checkDecodedLazy(name string, v any, raw func() []byte, fallback, what string) error {
	b := frameBook()
	s, ok := b.compiled[name]
	if !ok {
		return verdict.Errorf("the kit has no schema %s: %v", name, b.err)
	}
	err := s.Validate(v)
	ve, isVE := err.(*jsonschema.ValidationError)
	if !isVE {
		return nil
	}
	rule := b.ruleOf(ve)
	if rule == "" {
		rule = fallback
	}
	return verdict.Failf(rule, fmt.Sprintf("%s as spec/pyyol/frames/%s.json describes it", what, name), string(raw()), "%s", firstLeaf(ve))
}

var (
	catalogueOnce sync.Once
	catalogue     *spec.Catalogue
)

// binding reports whether a schema failure names a MUST rule.
func binding(err error) bool {
	catalogueOnce.Do(func() { catalogue, _ = spec.Load("pyyol") })
	var f *verdict.Failure
	return catalogue != nil && errors.As(err, &f) && catalogue.LevelOf(f.RuleID) == spec.Must
}

// judgeFrame returns the schema failure of a received frame when it names
// a MUST rule, so the check fails on that rule at once; any other
// mismatch (the kit's own layout, PYYOL-REF-FRAMES) is kept as a finding
// through note, a warning that ends nothing.
func judgeFrame(err error, note func(error)) error {
	if err == nil {
		return nil
	}
	if binding(err) {
		return err
	}
	note(err)
	return nil
}
