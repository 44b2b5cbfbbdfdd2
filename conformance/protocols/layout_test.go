package protocols

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
)

// extraField is the member the faithful layout adds to every object: no
// contract forbids a field it does not name in a response.
const extraField = "x_faithful_extra"

// shuffled wraps a reference so every JSON answer says the same things in
// another spelling: object keys in reverse order, indented, and an
// undocumented member added to the answer's top-level object (a record;
// a nested object may be a dictionary, whose members are its entries).
// Every contract leaves these open, so the live checks of every protocol
// must read them as the reference's own: normalize, then judge.
func shuffled(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			if out, ok := respell(body); ok {
				body = out
			}
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}

// respell re-encodes one JSON document in the faithful layout.
func respell(body []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return nil, false
	}
	var b bytes.Buffer
	if top, ok := v.(map[string]any); ok {
		top[extraField] = true
	}
	writeShuffled(&b, v, "\n")
	b.WriteByte('\n')
	return b.Bytes(), true
}

// writeShuffled writes v with object keys in reverse order, each member
// and element on a line of its own (indent is the current line break).
func writeShuffled(b *bytes.Buffer, v any, indent string) {
	inner := indent + "  "
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Sort(sort.Reverse(sort.StringSlice(keys)))
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.WriteString(inner)
			b.Write(kb)
			b.WriteString(": ")
			writeShuffled(b, t[k], inner)
		}
		if len(keys) > 0 {
			b.WriteString(indent)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			writeShuffled(b, x, inner)
		}
		if len(t) > 0 {
			b.WriteString(indent)
		}
		b.WriteByte(']')
	default:
		out, _ := json.Marshal(t)
		b.Write(out)
	}
}

// TestEveryProtocolReadsAFaithfulLayoutAsItsOwn runs every HTTP protocol's
// live checks against its reference answering in the faithful layout: no
// MUST check may fail or err on it (warnings on the kit's own REFERENCE
// shapes are allowed).
func TestEveryProtocolReadsAFaithfulLayoutAsItsOwn(t *testing.T) {
	t.Parallel() // its runs mostly wait (the bounty's board clocks); each serves its own reference
	for _, p := range All() {
		if len(p.WebSocketPaths) > 0 {
			continue // its checks read socket frames, which an HTTP wrapper cannot respell
		}
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			settings, err := suite.ParseSettings(p.Flags, p.ServeFlags)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(shuffled(p.Reference(suite.ReferenceConfig{Seed: 5})))
			defer srv.Close()
			rep := tamper.Faithful(t, suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL + p.BasePath + p.EntryPath,
				Seed: 5, Checks: 2, Settings: settings}, 1)
			if decided := len(rep.Results) - rep.Tally()[p.Name][verdict.Skip]; decided < len(rep.Results)/2 {
				t.Errorf("only %d of %d checks decided: the faithful layout was hardly checked", decided, len(rep.Results))
			}
		})
	}
}
