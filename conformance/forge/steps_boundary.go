package forge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// The checks here each look at one rule's own condition first, so that a
// target breaking that rule alone is named for it rather than for a
// neighbouring rule: the key's recovery (FORGE-KEY-UNRECOVERABLE), the
// Bearer scheme (FORGE-BEARER), a level chosen through the query string
// (FORGE-NO-LEVEL-SELECTION), a cleared level still shown
// (FORGE-SESSION-PUBLIC-VIEW), two agents' chains (FORGE-CHAIN-LINEAR), a
// level changing under an agent (FORGE-PUBLISHED-IMMUTABLE) and the source
// schema's difficulty (FORGE-LEGACY-DIFFICULTY-SCHEMA).

func (w *world) boundarySteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the agent's own key is accepted as a Bearer token$`), w.bearerAccepted)
	sc.Step(pattern(`^the agent calls every read the API description lists, as itself$`), w.readEveryListedGet)
	sc.Step(pattern(`^the agent registers again under its own nickname$`), w.registerAgain)
	sc.Step(pattern(`^no answer carried the agent's key$`), w.keyNeverBack)
	sc.Step(pattern(`^the agent opens a session with \{\} naming the next level in the query string$`), w.sessionByQuery)
	sc.Step(pattern(`^the session is refused or serves the agent's current level$`), w.queryIgnored)
	sc.Step(pattern(`^its progress and its next session show nothing of the cleared level$`), w.clearedHidden)
	sc.Step(pattern(`^the first agent clears its level while the second looks on, then the second clears its own$`), w.clearInTurn)
	sc.Step(pattern(`^each position showed both agents the same level, unchanged between reads$`), w.sameLevels)
	sc.Step(pattern(`^the puzzle schema is read without a key$`), w.readSchema)
	sc.Step(pattern(`^it validates difficulty wherever it describes it and never requires it$`), w.difficultyOptional)
}

// bearerAccepted: the agent's own key, sent as the contract's Bearer
// token, opens its own reads (FORGE-BEARER); a target taking the key some
// other way only refuses it.
func (w *world) bearerAccepted(ctx context.Context) error {
	for _, path := range []string{"/api/agent", "/api/progress"} {
		resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodGet, Path: path})
		if err != nil {
			return err
		}
		if resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden {
			return verdict.Failf("FORGE-BEARER", "the agent's key accepted as a Bearer token", resp.Status,
				"GET %s with Authorization: Bearer <key>: %s", path, w.env.HTTP.Secrets().Clip(resp.Body))
		}
	}
	return nil
}

// maxListedReads bounds the reads one scenario takes from an API
// description.
const maxListedReads = 40

// documentedReads are the contract's own reads, asked whatever the API
// description lists.
var documentedReads = []string{"/api/agent", "/api/progress", "/api/chain", "/api/leaderboards"}

// readEveryListedGet calls, with the agent's key, every GET operation the
// target's /openapi.json lists and the contract's own reads: the answers
// are judged for the key without the running FORGE-KEY-ONCE watch, so a
// recovery endpoint is named for its own rule.
func (w *world) readEveryListedGet(ctx context.Context) error {
	paths := append([]string(nil), documentedReads...)
	resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: "/openapi.json"})
	if err != nil {
		return err
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if resp.Status == http.StatusOK && json.Unmarshal(resp.Body, &doc) == nil {
		var listed []string
		for p, ops := range doc.Paths {
			if _, ok := ops["get"]; ok {
				if filled, ok := fillPath(p, w.me); ok {
					listed = append(listed, filled)
				}
			}
		}
		sort.Strings(listed)
		for _, p := range listed {
			if !containsPath(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) > maxListedReads {
		paths = paths[:maxListedReads]
	}
	for _, p := range paths {
		resp, err := w.unwatched(ctx, w.me, driver.Request{Method: http.MethodGet, Path: p})
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

func containsPath(list []string, p string) bool {
	for _, l := range list {
		if l == p {
			return true
		}
	}
	return false
}

// fillPath fills an OpenAPI path template with the agent's own id or
// name; a template with any other parameter is left out, and so is one
// that could leave the target's origin once appended to its base URL
// (keys go only to the target's own origin).
func fillPath(template string, a *agent) (string, bool) {
	if !strings.HasPrefix(template, "/") || strings.HasPrefix(template, "//") ||
		strings.ContainsAny(template, "@\\?#") || strings.Contains(template, "..") {
		return "", false
	}
	var b strings.Builder
	rest := template
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(rest)
			return b.String(), true
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return "", false
		}
		b.WriteString(rest[:open])
		param := strings.ToLower(rest[open+1 : open+end])
		switch {
		case strings.Contains(param, "name"):
			b.WriteString(url.PathEscape(a.Name))
		case strings.Contains(param, "agent") || param == "id":
			b.WriteString(url.PathEscape(a.ID))
		default:
			return "", false
		}
		rest = rest[open+end+1:]
	}
}

// unwatched sends req as a without the FORGE-KEY-ONCE watch of client.do
// and without the kit's OpenAPI check: the path may be one only the
// target's own description lists, which the kit's document cannot judge.
func (c *client) unwatched(ctx context.Context, a *agent, req driver.Request) (*driver.Response, error) {
	if req.Header == nil {
		req.Header = map[string]string{}
	}
	if a != nil {
		req.Header["Authorization"] = "Bearer " + a.Key
	}
	plain, err := c.env.HTTPAt(c.env.HTTP.BaseURL())
	if err != nil {
		return nil, err
	}
	resp, err := plain.Do(ctx, req)
	if err == nil {
		c.bodies = append(c.bodies, resp.Body)
	}
	return resp, err
}

// registerAgain registers the agent's own nickname again, the way an agent
// that lost its key would try to get it back: the nickname is taken, so
// the registration is refused (FORGE-NICKNAME-UNIQUE judges that), and
// no answer may hand the first key back.
func (w *world) registerAgain(ctx context.Context) error {
	resp, err := w.unwatched(ctx, nil, driver.Request{Method: http.MethodPost, Path: "/api/agents", JSON: map[string]string{"name": w.me.Name}})
	if err == nil {
		w.answers = append(w.answers, resp)
	}
	return err
}

// keyNeverBack: no read hands the key back (FORGE-KEY-UNRECOVERABLE); an
// answer that does also carries the key a second time (FORGE-KEY-ONCE),
// which is recorded beside it.
func (w *world) keyNeverBack() error {
	for _, r := range w.answers {
		if bytes.Contains(r.Body, []byte(w.me.Key)) {
			w.note("FORGE-KEY-ONCE", "no answer after the registration carries the apiKey", "the apiKey again", "a later answer returned it")
			return verdict.Failf("FORGE-KEY-UNRECOVERABLE", "no endpoint returns the key after registration", "the key",
				"an answer (status %d) after the registration carried the agent's key", r.Status)
		}
	}
	return nil
}

// sessionByQuery opens a session with the exact body {} whose query string
// names the level after the agent's current one.
func (w *world) sessionByQuery(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return verdict.Errorf("a new agent has no current level")
	}
	w.Before = p.CurrentLevel.Position
	next := w.Before + 1
	path := fmt.Sprintf("/api/sessions?position=%d&level=%d&levelPosition=%d", next, next, next)
	resp, err := w.sendWaiting(ctx, w.me, driver.Request{Method: http.MethodPost, Path: path, Raw: []byte(`{}`), Allow: []int{429}})
	w.Last = resp
	return err
}

// queryIgnored: the session is refused or serves the current level
// (FORGE-NO-LEVEL-SELECTION when it serves the level the query named,
// FORGE-SESSION-CURRENT when it serves yet another one).
func (w *world) queryIgnored() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return nil // refused: the agent chose nothing
	}
	var s sessionDoc
	if err := w.Last.Decode("FORGE-SESSION-CURRENT", &s); err != nil {
		return err
	}
	pos := s.Position
	if pos == 0 && s.Level != nil {
		pos = s.Level.Position
	}
	switch pos {
	case w.Before:
		return nil
	case 0:
		return verdict.Skipf("unchecked: the session names no position")
	case w.Before + 1:
		return verdict.Failf("FORGE-NO-LEVEL-SELECTION", w.Before, pos, "a session opened with ?position=%d served that level", pos)
	}
	return verdict.Failf("FORGE-SESSION-CURRENT", w.Before, pos, "the session serves another level than the current one")
}

// clearedHidden: after a clear, the progress and the next session show
// the new current level only: no title, rules or id of the cleared level
// that the new level does not share (FORGE-SESSION-PUBLIC-VIEW).
func (w *world) clearedHidden(ctx context.Context) error {
	if w.sess == nil || w.sess.Level == nil {
		return verdict.Errorf("no cleared level to compare with")
	}
	cleared := *w.sess.Level
	mark := len(w.bodies)
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return verdict.Skipf("the cleared level was the chain's last")
	}
	if _, err := w.mustOpen(ctx, w.me); err != nil {
		return err
	}
	cur := p.CurrentLevel
	for _, text := range []string{cleared.Title, cleared.Rules, cleared.LevelID} {
		if len(text) < 6 || strings.Contains(cur.Title+"\n"+cur.Rules+"\n"+cur.LevelID, text) {
			continue
		}
		quoted, _ := json.Marshal(text)
		needle := strings.Trim(string(quoted), `"`)
		for _, b := range w.bodies[mark:] {
			if strings.Contains(string(b), needle) {
				return verdict.Failf("FORGE-SESSION-PUBLIC-VIEW", "the current level's view only", text,
					"an answer after the clear still shows level %d's content", cleared.Position)
			}
		}
	}
	return nil
}
