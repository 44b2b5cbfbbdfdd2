package bounty_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// The targets of the fourth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// registeredNow shows every board entry's track_record.registered_round
// as the board's own round: the record filled in at read time.
func registeredNow(m map[string]any) {
	list, _ := m["peers"].([]any)
	for _, e := range list {
		if o, ok := e.(map[string]any); ok {
			if tr, ok := o["track_record"].(map[string]any); ok {
				tr["registered_round"] = m["round"]
			}
		}
	}
}

// namesInBytes refuses a profile name longer than 32 bytes: the limit
// counted with len() on the UTF-8 string, not in characters.
func namesInBytes(h http.Handler) http.Handler {
	return refusesNames(h, "name must be 2-32 chars", func(n string) bool {
		return len(n) > 32 && utf8.RuneCountInString(n) <= 32
	})
}

// refusesNames answers a profile edit whose name refuse picks with 400
// bad_request and reason, before h sees it.
func refusesNames(h http.Handler, reason string, refuse func(name string) bool) http.Handler {
	return refusesField(h, "/agents/profile", "name", reason, refuse)
}

// refusesField answers a POST to the path ending in suffix whose string
// field refuse picks with 400 bad_request and reason, before h sees it.
func refusesField(h http.Handler, suffix, field, reason string, refuse func(v string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !at(r, http.MethodPost, suffix) {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var p map[string]any
		_ = json.Unmarshal(body, &p)
		if v, ok := p[field].(string); ok && refuse(v) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "code": "bad_request", "reason": reason})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// mcpAnswers edits every JSON-RPC answer of the MCP endpoint.
func mcpAnswers(edit func(m map[string]any)) func(h http.Handler) http.Handler {
	return answers(http.MethodPost, "/mcp", edit)
}

// idAsString echoes a JSON-RPC request's numeric id as a string: the id
// kept as the raw text of the request.
func idAsString(m map[string]any) {
	if id, ok := m["id"].(float64); ok {
		b, _ := json.Marshal(id)
		m["id"] = string(b)
	}
}

// mcpAsText serves the MCP endpoint's answers as text/plain: a handler
// that writes the JSON without setting its type.
func mcpAsText(h http.Handler) http.Handler {
	return harness.Route(h, func(r *http.Request) bool { return at(r, http.MethodPost, "/mcp") },
		harness.Respell(h, harness.Respelling{ContentType: "text/plain; charset=utf-8"}))
}

// snakeSchemas lists every MCP tool's inputSchema as input_schema: the
// registry's Go struct tagged in the house style.
func snakeSchemas(m map[string]any) {
	eachTool(m, func(o map[string]any) {
		if s, has := o["inputSchema"]; has {
			delete(o, "inputSchema")
			o["input_schema"] = s
		}
	})
}

// originFromRound computes the solve election's rank_origin from the
// round itself, not round-1.
func originFromRound(p map[string]any, m map[string]any) {
	e, ok := p["solve_election"].(map[string]any)
	round, _ := m["round"].(float64)
	count, _ := p["agents_listed"].(float64)
	if ok && count > 0 {
		e["rank_origin"] = float64(int(round*3) % int(count))
	}
}

// claimsCarriedOver keeps the claims declared in a round on the next
// round's intents block for the claimants still listed there: the claims
// stored with the listings, which carry over, though each entry's
// working_on is cleared.
func claimsCarriedOver(h http.Handler) http.Handler {
	var mu sync.Mutex
	var rounds []string                   // the challenge_ids in the order their claims were seen
	claims := map[string]map[string]any{} // challenge_id -> agent_id -> share
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		var p struct {
			AgentID   string `json:"agent_id"`
			WorkingOn any    `json:"working_on"`
		}
		if at(r, http.MethodPost, "/peers") && len(parts) >= 3 && *st/100 == 2 && json.Unmarshal(body, &p) == nil && p.WorkingOn != nil {
			cid := parts[len(parts)-2]
			if claims[cid] == nil {
				claims[cid] = map[string]any{}
				rounds = append(rounds, cid)
			}
			claims[cid][p.AgentID] = p.WorkingOn
		}
		in, _ := m["intents"].(map[string]any)
		by, _ := in["by_share"].(map[string]any)
		id, _ := m["challenge_id"].(string)
		if !at(r, http.MethodGet, "/peers") || by == nil || len(rounds) == 0 || rounds[len(rounds)-1] == id {
			return
		}
		for _, e := range entries(r, m) {
			a, _ := e["agent_id"].(string)
			if share, ok := claims[rounds[len(rounds)-1]][a]; ok {
				key := fmt.Sprint(share)
				cur, _ := by[key].([]any)
				by[key] = append(cur, a)
			}
		}
	})
}

// mcpTypedLoudly answers every MCP request typed "Application/JSON;
// charset=UTF-8", its keys in reverse order: a media type's case and
// parameters are free, and so is a JSON object's order.
func mcpTypedLoudly(h http.Handler) http.Handler {
	return harness.Route(h, func(r *http.Request) bool { return at(r, http.MethodPost, "/mcp") },
		harness.Respell(h, harness.Respelling{ContentType: "Application/JSON; charset=UTF-8", Body: harness.ReversedTopKeys}))
}

// mcpAsEventStream answers every MCP request as the streamable-HTTP
// transport allows besides plain JSON: a text/event-stream of one event
// whose data is the JSON-RPC message (BOUNTY-MCP-FLOW).
func mcpAsEventStream(h http.Handler) http.Handler {
	return harness.Route(h, func(r *http.Request) bool { return at(r, http.MethodPost, "/mcp") },
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			if rec.Code == http.StatusOK && len(body) > 0 {
				body = append(append([]byte("event: message\ndata: "), body...), "\n\n"...)
				w.Header().Set("Content-Type", "text/event-stream")
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.Code)
			_, _ = w.Write(body)
		}))
}

// asciiNamesOnly refuses a profile name with anything but ASCII letters,
// digits, '-' and '_': a charset the seed leaves open ("2-32 chars").
func asciiNamesOnly(h http.Handler) http.Handler {
	return refusesNames(h, "names are ASCII letters, digits, - and _", func(n string) bool {
		return strings.IndexFunc(n, func(c rune) bool {
			return c >= utf8.RuneSelf || !(c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c))
		}) >= 0
	})
}
