package iyra

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// publicSurfaces returns the parts of a response that are public: the
// observation and progress of a session answer (the rest of it goes to
// the participant only), or the whole of any other answer that reports a
// run, such as a replay.
func publicSurfaces(v any) []any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if _, isSession := m["observation"]; isSession {
		return []any{m["observation"], m["progress"]}
	}
	if m["integrity"] != nil || m["final_observation"] != nil || m["actions"] != nil {
		// The replay is read with the participant's own key: its final
		// state and ending are public evidence, the rest is the
		// participant's (audit LV9).
		return []any{m["final_observation"], m["ending"], m["epilogue"], m["outcome"]}
	}
	return nil
}

// checkPrivate fails when a body carries a truth key or a kit variant's
// truth text anywhere, or a field-notes key or text in a public surface
// (IYRA-VISIBILITY). A deployment's own truth under an innocent key is out
// of its reach: the catalogue entry says so.
func checkPrivate(body []byte) error {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	return checkPrivateTree(body, v)
}

// checkPrivateResponse is checkPrivate of a response, reading the tree the
// driver decoded once for every reader of it.
func checkPrivateResponse(resp *driver.Response) error {
	v, err := resp.Tree()
	if err != nil {
		return nil
	}
	return checkPrivateTree(resp.Body, v)
}

// privateTexts are the default pack's truth and field-notes texts as JSON
// strings spell them, worked out once: every answer is searched for them.
var privateTexts = sync.OnceValue(func() []privateText {
	var out []privateText
	for _, vr := range iyra.DefaultPack().Variants {
		t := privateText{variant: vr.ID, truth: vr.Truth, notes: vr.FieldNotes}
		if vr.Truth != "" {
			t.truthJSON = []byte(jsonText(vr.Truth))
		}
		if vr.FieldNotes != "" {
			t.notesJSON = []byte(jsonText(vr.FieldNotes))
		}
		out = append(out, t)
	}
	return out
})

// privateText is one variant's secret texts, raw and JSON-escaped.
type privateText struct {
	variant, truth, notes string
	truthJSON, notesJSON  []byte
}

// checkPrivateTree is checkPrivate of body already decoded as v.
func checkPrivateTree(body []byte, v any) error {
	if k := privateKey(v, truthKeys); k != "" {
		return verdict.Failf("IYRA-VISIBILITY", "no server-secret field", k, "a response carries %q", k)
	}
	surfaces := publicSurfaces(v)
	public, _ := json.Marshal(surfaces)
	for _, p := range surfaces {
		if k := privateKey(p, noteKeys); k != "" {
			return verdict.Failf("IYRA-VISIBILITY", "no participant-only field in public state", k, "a public surface carries %q", k)
		}
	}
	for _, t := range privateTexts() {
		if t.truthJSON != nil && bytes.Contains(body, t.truthJSON) {
			return verdict.Failf("IYRA-VISIBILITY", "no server-secret text", t.truth, "variant %s truth in a response", t.variant)
		}
		if t.notesJSON != nil && bytes.Contains(public, t.notesJSON) {
			return verdict.Failf("IYRA-VISIBILITY", "no participant-only text in public state", t.notes, "variant %s field notes in a public surface", t.variant)
		}
	}
	return nil
}

// checkPrivateHeader fails when a header field of an answer carries a kit
// variant's truth (IYRA-VISIBILITY: the truth "never appears in any
// response", and a header is part of one). Field notes are forbidden in
// public state only, which no header is, so they are not searched here.
func checkPrivateHeader(h http.Header) error {
	for name, values := range h {
		for _, v := range values {
			for _, t := range privateTexts() {
				if t.truth != "" && strings.Contains(v, t.truth) {
					return verdict.Failf("IYRA-VISIBILITY", "no server-secret text", t.truth, "variant %s truth in the %s header", t.variant, name)
				}
			}
		}
	}
	return nil
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// privateKey finds a key of names at any depth of a JSON value.
func privateKey(v any, names []string) string {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			if slices.Contains(names, strings.ToLower(k)) {
				return k
			}
			if found := privateKey(child, names); found != "" {
				return found
			}
		}
	case []any:
		for _, child := range t {
			if found := privateKey(child, names); found != "" {
				return found
			}
		}
	}
	return ""
}

// replayDoc is the replay as the runner reads it.
type replayDoc struct {
	SessionID              string       `json:"session_id"`
	VersionID              string       `json:"version_id"`
	Outcome                string       `json:"outcome"`
	Ending                 string       `json:"ending"`
	TrustedRankingEligible *bool        `json:"trusted_ranking_eligible"`
	Actions                []iyra.Entry `json:"actions"`
	VoluntaryNextSteps     []any        `json:"voluntary_next_steps"`
	Integrity              *struct {
		Verified *bool  `json:"verified"`
		Seed     string `json:"seed"`
		Head     string `json:"head"`
	} `json:"integrity"`
	PersonalBest *iyra.PersonalBest `json:"personal_best_dimensions"`
}

// replayDoc decodes a 200 replay answer (IYRA-REPLAY).
func (w *world) replayDoc() (*replayDoc, error) {
	if err := w.NeedLast(); err != nil {
		return nil, err
	}
	if w.Last.Status != http.StatusOK {
		return nil, verdict.Failf("IYRA-REPLAY", "200 with the replay", w.Last.Status, "%s", clip(w.Last.Body))
	}
	var r replayDoc
	return &r, w.Last.Decode("IYRA-REPLAY", &r)
}

// actionList finds a replay's list of actions: its "actions" array, or the
// top-level array whose first entry has a type or an action.
func actionList(replay []byte) ([]json.RawMessage, bool) {
	var doc map[string]json.RawMessage
	if json.Unmarshal(replay, &doc) != nil {
		return nil, false
	}
	var list []json.RawMessage
	if raw, ok := doc["actions"]; ok {
		return list, json.Unmarshal(raw, &list) == nil
	}
	for _, k := range slices.Sorted(maps.Keys(doc)) {
		var entries []map[string]json.RawMessage
		if json.Unmarshal(doc[k], &entries) != nil || len(entries) == 0 {
			continue
		}
		if _, typed := entries[0]["type"]; typed || entries[0]["action"] != nil {
			return list, json.Unmarshal(doc[k], &list) == nil
		}
	}
	return nil, false
}
