package forge_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The eighth round of slipCases and authoringNeighbours
// (broken_slips_test.go; docs/detection.md): the rows after their "Round
// 8" comments, kept here with their middleware.

// roundEightSlips are the eighth round's rows of slipCases.
func roundEightSlips() []slip {
	return []slip{
		{"a session's level hints its oracle's first step", "FORGE-PRIVATE-SERVER-ONLY", oracleStepHint, true},
		{"the publication tells its hidden inputs as a space-separated text", "FORGE-PRIVATE-SERVER-ONLY", hiddenAsText, true},
		{"the chain summary previews its tail's example outputs", "FORGE-CHAIN-SUMMARY", chainTailSamples, true},
		{"a reordered retry under the same key is refused 409 as a duplicate level", "FORGE-IDEMPOTENT-REPLAY", reorderedDuplicate, true},
		{"an Idempotency-Key of exactly 8 characters is refused", "FORGE-IDEMPOTENCY-KEY-FORMAT", func() http.Handler { return keysWithin(9, 128) }, true},
		{"a 129-character Idempotency-Key is cut to 128 and taken", "FORGE-IDEMPOTENCY-KEY-FORMAT", keysCut, true},
		{"a probe asked again in a session is answered one higher", "FORGE-ORACLE-DETERMINISTIC", repeatJitter, false},
		{"a wrong submission is answered with the solution", "FORGE-PRIVATE-SERVER-ONLY", wrongShowsSolution, true},
		{"the publication answers its validation results, the outputs on the hidden inputs", "FORGE-PRIVATE-SERVER-ONLY", validationResults, true},
		{"the chain summary teases its newest level's rules, cut to 40 characters", "FORGE-CHAIN-SUMMARY", chainTeaser, true},
	}
}

// roundEightNeighbours are the eighth round's rows of authoringNeighbours.
func roundEightNeighbours() []faithfulNeighbour {
	return []faithfulNeighbour{
		{"a publication tells its validation in words and counts", []string{"FORGE-PRIVATE-SERVER-ONLY", "FORGE-CHAIN-SUMMARY", "FORGE-APPEND"}, validationInWords},
		{"the chain summary names its newest position and a clock, a session the DSL's ops", []string{"FORGE-CHAIN-SUMMARY", "FORGE-PRIVATE-SERVER-ONLY"}, chainWithClock},
	}
}

// publishedPackage is what a slip of this round keeps of an accepted
// package: its title, oracle steps, hidden inputs and examples' outputs.
type publishedPackage struct {
	title   string
	oracle  dsl.Program
	steps   []any
	hidden  [][]int64
	outputs []json.RawMessage
}

// packages keeps every accepted package's parts, safe for concurrent
// requests.
type packages struct {
	mu   sync.Mutex
	byTi map[string]publishedPackage
	last *publishedPackage
}

// keep records the package body of an accepted POST /api/levels.
func (p *packages) keep(body []byte) {
	var pkg struct {
		Public struct {
			Title    string `json:"title"`
			Examples []struct {
				Output json.RawMessage `json:"output"`
			} `json:"examples"`
		} `json:"public"`
		Private struct {
			Oracle struct {
				Steps []any `json:"steps"`
			} `json:"oracle"`
			HiddenInputs [][]int64 `json:"hiddenInputs"`
		} `json:"private"`
	}
	var program struct {
		Private struct {
			Oracle dsl.Program `json:"oracle"`
		} `json:"private"`
	}
	if json.Unmarshal(body, &pkg) != nil || json.Unmarshal(body, &program) != nil {
		return
	}
	kept := publishedPackage{title: pkg.Public.Title, oracle: program.Private.Oracle, steps: pkg.Private.Oracle.Steps, hidden: pkg.Private.HiddenInputs}
	for _, e := range pkg.Public.Examples {
		kept.outputs = append(kept.outputs, e.Output)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byTi == nil {
		p.byTi = map[string]publishedPackage{}
	}
	p.byTi[kept.title] = kept
	p.last = &kept
}

// titled is the kept package of a title.
func (p *packages) titled(title string) (publishedPackage, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.byTi[title]
	return k, ok
}

// latest is the last package kept.
func (p *packages) latest() (publishedPackage, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last == nil {
		return publishedPackage{}, false
	}
	return *p.last, true
}

// keeping is the reference with every accepted package kept in p and
// resp called on every answer.
func keeping(p *packages, resp func(r *http.Request, st *int, m map[string]any)) tamper {
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		if is(r, http.MethodPost, "/api/levels") && *st/100 == 2 {
			p.keep(body)
		}
		resp(r, st, m)
	})
}

// oracleStepHint gives a session's level a hint: its oracle's first step,
// one object of the private program, not the whole
// (FORGE-PRIVATE-SERVER-ONLY).
func oracleStepHint() http.Handler {
	p := &packages{}
	return keeping(p, func(r *http.Request, st *int, m map[string]any) {
		l, ok := m["level"].(map[string]any)
		if !ok || !is(r, http.MethodPost, "/api/sessions") || *st/100 != 2 {
			return
		}
		title, _ := l["title"].(string)
		if k, ok := p.titled(title); ok && len(k.steps) > 0 {
			l["hint"] = k.steps[0]
		}
	})
}

// hiddenAsText tells the publication's hidden inputs as one text, the
// values space-separated and the inputs by "; ", as a log line would
// (FORGE-PRIVATE-SERVER-ONLY).
func hiddenAsText() http.Handler {
	p := &packages{}
	return keeping(p, func(r *http.Request, st *int, m map[string]any) {
		pub, ok := m["publication"].(map[string]any)
		if !ok || !is(r, http.MethodPost, "/api/levels") || *st/100 != 2 {
			return
		}
		if k, ok := p.latest(); ok {
			lines := make([]string, len(k.hidden))
			for i, in := range k.hidden {
				vals := make([]string, len(in))
				for j, v := range in {
					vals[j] = strconv.FormatInt(v, 10)
				}
				lines[i] = strings.Join(vals, " ")
			}
			pub["validatedOn"] = "hidden: " + strings.Join(lines, "; ")
		}
	})
}

// chainTailSamples gives the chain summary its tail's example outputs, as
// a preview of the newest level (FORGE-CHAIN-SUMMARY).
func chainTailSamples() http.Handler {
	p := &packages{}
	return keeping(p, func(r *http.Request, st *int, m map[string]any) {
		if !is(r, http.MethodGet, "/api/chain") || *st != 200 {
			return
		}
		if k, ok := p.latest(); ok {
			m["newest"] = map[string]any{"samples": k.outputs}
		}
	})
}

// reorderedDuplicate compares a retry's body with the key's first body
// byte by byte; one that differs is sent on under a key of its own, where
// the reference finds the content a duplicate: the same key and an
// equivalent body answered 409 DUPLICATE_CONTENT (FORGE-IDEMPOTENT-REPLAY).
func reorderedDuplicate() http.Handler {
	var mu sync.Mutex
	first := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		k := r.Header.Get("Idempotency-Key")
		if !is(r, http.MethodPost, "/api/levels") || k == "" {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		id := r.Header.Get("Authorization") + " " + k
		if seen, ok := first[id]; !ok {
			first[id] = string(body)
		} else if seen != string(body) && sameJSON([]byte(seen), body) {
			r.Header.Set("Idempotency-Key", k[:min(len(k), 100)]+"-again")
		}
		return body
	}}
}

// sameJSON: a and b decode to the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return string(xs) == string(ys)
}

// keysCut cuts an Idempotency-Key past 128 characters to 128 and takes it
// (FORGE-IDEMPOTENCY-KEY-FORMAT).
func keysCut() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if k := r.Header.Get("Idempotency-Key"); is(r, http.MethodPost, "/api/levels") && len(k) > 128 {
			r.Header.Set("Idempotency-Key", k[:128])
		}
		return body
	}}
}

// repeatJitter answers a probe a session already asked with each output
// value one higher: an anti-replay jitter (FORGE-ORACLE-DETERMINISTIC).
func repeatJitter() http.Handler {
	var mu sync.Mutex
	asked := map[string]bool{}
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		if !is(r, http.MethodPost, "/query") || *st != 200 {
			return
		}
		var q struct{ Input json.RawMessage }
		if json.Unmarshal(body, &q) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		k := r.URL.Path + " " + string(q.Input)
		if !asked[k] {
			asked[k] = true
			return
		}
		switch out := m["output"].(type) {
		case float64:
			m["output"] = out + 1
		case []any:
			for i, v := range out {
				if n, ok := v.(float64); ok {
					out[i] = n + 1
				}
			}
		}
	})
}

// wrongShowsSolution answers a wrong submission on an authored level
// with the expected outputs under solution (FORGE-PRIVATE-SERVER-ONLY).
func wrongShowsSolution() http.Handler {
	p := &packages{}
	var mu sync.Mutex
	sessions := map[string][]any{}
	return keeping(p, func(r *http.Request, st *int, m map[string]any) {
		if l, ok := m["level"].(map[string]any); ok && is(r, http.MethodPost, "/api/sessions") {
			title, _ := l["title"].(string)
			id, _ := m["sessionId"].(string)
			if k, ok := p.titled(title); ok {
				raw, _ := json.Marshal(m["challengeInputs"])
				var ins [][]int64
				_ = json.Unmarshal(raw, &ins)
				var outs []any
				for _, in := range ins {
					v, _ := dsl.Eval(k.oracle, in)
					outs = append(outs, v)
				}
				mu.Lock()
				sessions[id] = outs
				mu.Unlock()
			}
		}
		if is(r, http.MethodPost, "/submit") && m["correct"] == false {
			parts := strings.Split(r.URL.Path, "/")
			mu.Lock()
			outs, ok := sessions[parts[len(parts)-2]]
			mu.Unlock()
			if ok {
				m["solution"] = outs
			}
		}
	})
}

// validationResults answers a publication with its validation's results:
// the oracle's output on each hidden input, validation material under a
// friendly name (FORGE-PRIVATE-SERVER-ONLY).
func validationResults() http.Handler {
	p := &packages{}
	return keeping(p, func(r *http.Request, st *int, m map[string]any) {
		pub, ok := m["publication"].(map[string]any)
		if !ok || !is(r, http.MethodPost, "/api/levels") || *st/100 != 2 {
			return
		}
		if k, ok := p.latest(); ok {
			var outs []any
			for _, in := range k.hidden {
				v, _ := dsl.Eval(k.oracle, in)
				outs = append(outs, v)
			}
			pub["checks"] = map[string]any{"passed": len(outs), "results": outs}
		}
	})
}

// chainTeaser gives the chain summary a teaser of its newest level: the
// rules cut to 40 characters and an ellipsis (FORGE-CHAIN-SUMMARY).
func chainTeaser() http.Handler {
	var mu sync.Mutex
	rules := ""
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		var pkg struct {
			Public struct{ Rules string } `json:"public"`
		}
		mu.Lock()
		defer mu.Unlock()
		if is(r, http.MethodPost, "/api/levels") && *st/100 == 2 && json.Unmarshal(body, &pkg) == nil {
			rules = pkg.Public.Rules
		}
		if is(r, http.MethodGet, "/api/chain") && *st == 200 && len([]rune(rules)) > 40 {
			m["newest"] = map[string]any{"teaser": string([]rune(rules)[:40]) + "…"}
		}
	})
}

// validationInWords answers a publication with its validation told in
// words and counts, none of them a private value: a faithful neighbour of
// hiddenAsText and validationResults.
func validationInWords() http.Handler {
	return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
		if pub, ok := m["publication"].(map[string]any); ok && *st/100 == 2 {
			pub["validation"] = "3 hidden inputs and 200 generated inputs, each run 3 times: 0 of 1809 runs failed, 2 of 2 examples agree, budget 10000 steps"
		}
	})
}

// chainWithClock gives the chain summary its newest position, its length
// and the time of the last append, and a session's level the DSL's op
// names: public facts, a faithful neighbour of chainTailSamples,
// chainTeaser and oracleStepHint.
func chainWithClock() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		if is(r, http.MethodGet, "/api/chain") && *st == 200 {
			m["newest"] = map[string]any{"position": m["length"], "levels": m["length"], "updatedAt": "2026-12-06T08:40:00Z"}
		}
		if l, ok := m["level"].(map[string]any); ok && is(r, http.MethodPost, "/api/sessions") {
			l["dslOps"] = []any{"map", "filter", "sort", "reverse", "sum", "deltas", "chunk_reduce", "rle"}
		}
	}}
}
