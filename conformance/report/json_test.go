package report

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"testing"
)

func jsonBytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestJSONTopLevel(t *testing.T) {
	var doc struct {
		Tool     string         `json:"tool"`
		Started  string         `json:"started"`
		Duration string         `json:"duration"`
		Seed     uint64         `json:"seed"`
		Embedded bool           `json:"embedded"`
		ExitCode int            `json:"exit_code"`
		Status   string         `json:"status"`
		Totals   map[string]int `json:"totals"`
		Summary  map[string]struct {
			Counts       map[string]int `json:"counts"`
			Total        int            `json:"total"`
			RulesTotal   int            `json:"rules_total"`
			RulesCovered int            `json:"rules_covered"`
			Target       string         `json:"target"`
		} `json:"summary"`
		Results []struct {
			Name       string `json:"name"`
			Seed       uint64 `json:"seed"`
			Transcript []struct {
				URL      string `json:"url"`
				RespBody string `json:"response_body"`
			} `json:"transcript"`
		} `json:"results"`
		Errors []string `json:"errors"`
	}
	if err := json.Unmarshal(jsonBytes(t), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tool != "conformance" || doc.Started != "2025-03-01T12:00:00Z" || doc.Duration != "1.5s" ||
		doc.Seed != 42 || !doc.Embedded || doc.ExitCode != 1 || doc.Status != "fail" || doc.Errors == nil {
		t.Errorf("top level %+v", doc)
	}
	if doc.Totals["fail"] != 2 || doc.Totals["pass"] != 4 || doc.Totals["error"] != 1 {
		t.Errorf("totals %v", doc.Totals)
	}
	iyra := doc.Summary["iyra"]
	if iyra.Total != 5 || iyra.RulesTotal != 5 || iyra.RulesCovered != 3 || iyra.Counts["fail"] != 2 || iyra.Counts["error"] != 0 {
		t.Errorf("iyra summary %+v", iyra)
	}
	if pp := doc.Summary["pp"]; pp.Total != 4 || pp.RulesCovered != 2 || pp.Counts["error"] != 1 {
		t.Errorf("pp summary %+v", pp)
	}
	if len(doc.Results) != 9 || doc.Results[4].Seed != bigSeed {
		t.Fatalf("results: %d, property seed %d", len(doc.Results), doc.Results[4].Seed)
	}
	if tr := doc.Results[1].Transcript; len(tr) != 1 || len(tr[0].RespBody) != 5012 {
		t.Errorf("full transcript missing from results: %+v", tr)
	}
}

func TestJSONRules(t *testing.T) {
	type check struct{ Name, Status, Message, Expected, Observed string }
	var doc struct {
		Rules map[string]struct {
			Protocol, Level, Title, Quote, Path, Choice, Status string
			Catalogued                                          bool
			Results                                             []check
		} `json:"rules"`
	}
	if err := json.Unmarshal(jsonBytes(t), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"IYRA-ID-EXPIRY": "fail", "IYRA-SITE-EFFECTS": "fail", "IYRA-OPENAPI": "warn",
		"IYRA-SKIPONLY": "skip", "IYRA-UNTESTED": "untested",
		"PP-SESSION-KEY": "pass", "PP-RATE": "error", "PP-ERRORS": "pass", "PP-GHOST": "pass",
	}
	if len(doc.Rules) != len(want) {
		t.Errorf("got %d rules, want %d", len(doc.Rules), len(want))
	}
	for id, st := range want {
		if got := doc.Rules[id].Status; got != st {
			t.Errorf("%s status %q, want %q", id, got, st)
		}
	}
	exp := doc.Rules["IYRA-ID-EXPIRY"]
	if exp.Protocol != "iyra" || exp.Level != "MUST" || exp.Quote != "a challenge expires after 60 seconds" ||
		exp.Path != "$.identity.challenge" || !exp.Catalogued || len(exp.Results) != 2 {
		t.Fatalf("IYRA-ID-EXPIRY %+v", exp)
	}
	fail := exp.Results[1]
	if fail.Status != "fail" || fail.Expected != "401" || fail.Observed != "200" || !strings.Contains(fail.Message, "IYRA-ID-EXPIRY") {
		t.Errorf("failing check under rule %+v", fail)
	}
	if doc.Rules["IYRA-OPENAPI"].Choice != "shapes in openapi.yaml" {
		t.Errorf("choice lost")
	}
	if u := doc.Rules["IYRA-UNTESTED"]; u.Results == nil || len(u.Results) != 0 {
		t.Errorf("untested rule must list an empty results array: %+v", u)
	}
	if g := doc.Rules["PP-GHOST"]; g.Catalogued || g.Protocol != "pp" {
		t.Errorf("uncatalogued rule %+v", g)
	}
}

func TestJSONDeterministic(t *testing.T) {
	a, b := jsonBytes(t), jsonBytes(t)
	if !bytes.Equal(a, b) {
		t.Fatal("two writes of one report differ")
	}
	if !bytes.Contains(a, []byte(`"seed": 18446744073709551557`)) {
		t.Error("64-bit seed lost precision")
	}
	if !bytes.Contains(a, []byte(`<script>alert(\"pwned\")</script>`)) {
		t.Error("JSON should keep text verbatim, not HTML-escape it")
	}
	assertSortedKeys(t, a)
}

// unsortedObjects walks every object of a JSON document and returns the key
// lists that are out of order, and how many objects it saw.
func unsortedObjects(t *testing.T, doc []byte) (bad [][]string, objects int) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	type frame struct {
		object bool
		keys   []string
		expect bool // the next string token in an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return bad, objects
		}
		if err != nil {
			t.Fatal(err)
		}
		if key, ok := tok.(string); ok {
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expect {
				stack[n-1].keys = append(stack[n-1].keys, key)
				stack[n-1].expect = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, expect: true})
			objects++
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			top := stack[len(stack)-1]
			if top.object && !sort.StringsAreSorted(top.keys) {
				bad = append(bad, top.keys)
			}
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expect = true
		}
	}
}

func assertSortedKeys(t *testing.T, doc []byte) {
	t.Helper()
	bad, objects := unsortedObjects(t, doc)
	for _, keys := range bad {
		t.Errorf("keys not sorted: %v", keys)
	}
	if objects < 20 {
		t.Errorf("walked only %d objects; the walker is broken", objects)
	}
}

// TestSortedKeysWalkerCatchesDisorder proves the walker used above can fail.
func TestSortedKeysWalkerCatchesDisorder(t *testing.T) {
	doc := []byte(`{"a":[{"x":1,"y":{"q":[1,{"c":1,"b":2}]}}],"b":{"z":1,"m":2},"c":{}}`)
	bad, objects := unsortedObjects(t, doc)
	if objects != 6 || len(bad) != 2 {
		t.Errorf("objects=%d unsorted=%v; want 6 objects, 2 unsorted", objects, bad)
	}
}
