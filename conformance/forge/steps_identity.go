package forge

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// readsAndRenames makes the calls after which the key must not reappear,
// the public boards after the rename among them; client.do fails
// FORGE-KEY-ONCE on any answer carrying it (FORGE-PATCH-NO-KEY on the
// rename's).
func (w *world) readsAndRenames(ctx context.Context) error {
	var self struct {
		Name string `json:"name"`
	}
	if _, err := w.get(ctx, w.me, "/api/agent", "FORGE-SELF", &self); err != nil {
		return err
	}
	if self.Name != w.me.Name {
		return verdict.Failf("FORGE-SELF", w.me.Name, self.Name, "GET /api/agent names another agent")
	}
	if _, err := w.progress(ctx, w.me); err != nil {
		return err
	}
	w.me.Name += "-r"
	resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodPatch, Path: "/api/agent", JSON: map[string]string{"name": w.me.Name}})
	w.Last = resp
	if err != nil {
		return err
	}
	// The public reads list the agent too (a solver row, its name): the
	// key must not come back there either, under any field.
	for _, path := range []string{"/api/leaderboards", "/api/chain"} {
		if _, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: path}); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) keyOnlyOnce() error {
	for _, b := range w.bodies[1:] {
		if strings.Contains(string(b), w.me.Key) {
			return verdict.Failf("FORGE-KEY-ONCE", "the key in the registration only", "the key again", "a later answer carried it")
		}
	}
	if w.Last != nil && strings.Contains(string(w.Last.Body), "apiKey") {
		return verdict.Failf("FORGE-PATCH-NO-KEY", "no apiKey in the rename answer", "an apiKey field", "PATCH /api/agent")
	}
	return nil
}

// renameThenRegister renames the agent to a free nickname, then registers
// a new agent under it: a nickname is taken however it was taken, so the
// registration must be refused (FORGE-NICKNAME-UNIQUE).
func (w *world) renameThenRegister(ctx context.Context) error {
	name := w.me.Name + "-n"
	resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodPatch, Path: "/api/agent", JSON: map[string]string{"name": name}})
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Skipf("unchecked: the rename to a free nickname was refused (%d), so no nickname was taken by a rename", resp.Status)
	}
	w.me.Name = name
	return w.registerSameName(ctx)
}

// registerSameName registers the taken nickname again as it is, then
// with a space on either side: a deployment that checks uniqueness on the
// name as sent and stores it trimmed lets the second through under the
// taken name (FORGE-NICKNAME-UNIQUE, paddedJudged; docs/detection.md,
// forge round 6).
func (w *world) registerSameName(ctx context.Context) error {
	resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodPost, Path: "/api/agents", JSON: map[string]string{"name": w.me.Name}})
	w.Last = resp
	if err != nil {
		return err
	}
	w.padded, err = w.do(ctx, nil, driver.Request{Method: http.MethodPost, Path: "/api/agents", JSON: map[string]string{"name": " " + w.me.Name + " "}})
	if err == nil {
		var reg struct {
			APIKey string `json:"apiKey"`
		}
		if w.padded.Status/100 == 2 && w.padded.Decode("FORGE-REGISTER", &reg) == nil && reg.APIKey != "" {
			w.env.HTTP.Secrets().Add(reg.APIKey)
		}
	}
	return err
}

// paddedJudged: the taken nickname with spaces round it is refused (any
// refusal: taken, or a name the deployment does not allow) or registered
// as another name; registered under the taken name itself is a second
// agent holding it (FORGE-NICKNAME-UNIQUE). An answer stating no name is
// unchecked.
func (w *world) paddedJudged() error {
	if w.padded == nil || w.padded.Status/100 != 2 {
		return nil
	}
	var reg struct {
		Name *string `json:"name"`
	}
	if w.padded.Decode("FORGE-REGISTER", &reg) == nil && reg.Name != nil && *reg.Name == w.me.Name {
		return verdict.Failf("FORGE-NICKNAME-UNIQUE", "the padded name refused, or kept apart from the taken one", *reg.Name,
			"a registration of %q answered %d under the taken nickname", " "+w.me.Name+" ", w.padded.Status)
	}
	return nil
}

func (w *world) registerLengths(ctx context.Context) error {
	for i, n := range []int{40, 41} {
		// Each name has its own prefix: a 41-code-point name cut to 40
		// must not collide with the 40 one and so pass as refused.
		suffix := randomHex(3)
		name := padded(suffix, n)
		resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodPost, Path: "/api/agents", JSON: map[string]string{"name": name}})
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
		w.names[i] = name
		var reg struct {
			APIKey string `json:"apiKey"`
		}
		if resp.Decode("FORGE-REGISTER", &reg) == nil && reg.APIKey != "" {
			w.env.HTTP.Secrets().Add(reg.APIKey)
		}
	}
	return nil
}

func (w *world) lengthsJudged() error {
	if len(w.answers) != 2 {
		return verdict.Errorf("two registrations expected")
	}
	if w.answers[0].Status/100 != 2 {
		return verdict.Failf("FORGE-NICKNAME-LENGTH", "40 code points accepted", w.answers[0].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[0].Body))
	}
	if w.answers[1].Status/100 != 4 {
		return verdict.Failf("FORGE-NICKNAME-LENGTH", "41 code points refused", w.answers[1].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[1].Body))
	}
	return nil
}

// renames reads the agent itself first, so that a self read cached
// before the rename is seen after it (FORGE-NICKNAME-PATCH), then renames
// it to a free nickname of exactly 40 code points (padded, so a limit in
// bytes or UTF-16 units refuses it) and to a taken one.
func (w *world) renames(ctx context.Context) error {
	taken, err := w.register(ctx, "taken")
	if err != nil {
		return err
	}
	if _, err := w.get(ctx, w.me, "/api/agent", "FORGE-SELF", nil); err != nil {
		return err
	}
	w.names = [2]string{padded(w.me.Name+"-x", 40), taken.Name}
	for _, n := range append(w.names[:], tooLong(w.me.Name)) {
		resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodPatch, Path: "/api/agent", JSON: map[string]string{"name": n}})
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

// tooLong is name padded to 41 code points: the contract's
// nicknameMaxCodePoints holds for a rename as for a registration
// (FORGE-NICKNAME-LENGTH).
func tooLong(name string) string { return padded(name, 41) }

// padded is name padded to n code points with 'é' (two bytes in UTF-8)
// and '𝄞' (four bytes, two UTF-16 code units) in turn: a limit counted in
// bytes or in UTF-16 code units (JavaScript's length) refuses 40 such code
// points, the contract's count does not (FORGE-NICKNAME-LENGTH;
// docs/detection.md, forge round 4).
func padded(name string, n int) string {
	r := []rune(name)
	for i := 0; len(r) < n; i++ {
		r = append(r, []rune("é𝄞")[i%2])
	}
	return string(r)
}

func (w *world) renamesJudged(ctx context.Context) error {
	if len(w.answers) != 3 {
		return verdict.Errorf("three renames expected")
	}
	if w.answers[0].Status/100 != 2 {
		return verdict.Failf("FORGE-NICKNAME-PATCH", "the rename applied", w.answers[0].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[0].Body))
	}
	// An answer that states the agent's name states the new one: one built
	// from the row read before the write is stale (FORGE-NICKNAME-PATCH).
	var answered struct{ Name *string }
	if json.Unmarshal(w.answers[0].Body, &answered) == nil && answered.Name != nil && *answered.Name != w.names[0] {
		return verdict.Failf("FORGE-NICKNAME-PATCH", w.names[0], *answered.Name, "the name the accepted rename answered")
	}
	if long := w.answers[2]; long.Status/100 != 4 {
		return verdict.Failf("FORGE-NICKNAME-LENGTH", "a 41-code-point rename refused", long.Status, "%s", w.env.HTTP.Secrets().Clip(long.Body))
	}
	var self struct {
		Name string `json:"name"`
	}
	if _, err := w.get(ctx, w.me, "/api/agent", "FORGE-SELF", &self); err != nil {
		return err
	}
	switch self.Name {
	case w.names[0]:
	case w.names[1]:
		return verdict.Failf("FORGE-PATCH-CONFLICT", w.names[0], self.Name, "the refused rename changed the nickname")
	default:
		return verdict.Failf("FORGE-NICKNAME-PATCH", w.names[0], self.Name, "the accepted rename did not apply")
	}
	second := w.answers[1]
	if second.Status != http.StatusConflict || code(second) != "NICKNAME_TAKEN" {
		return verdict.Failf("FORGE-PATCH-CONFLICT", "409 NICKNAME_TAKEN", second.Status, "%s", w.env.HTTP.Secrets().Clip(second.Body))
	}
	return w.boardsRenamed(ctx)
}

// boardsRenamed fails FORGE-NICKNAME-PATCH when the public boards, read
// after the rename, still list the agent under the nickname it had before
// and nowhere under the new one: the rename renames the agent, and a
// board reading a copy of the name taken at registration shows a
// nickname the agent gave up (free for another to take). A board that
// lists the agent under neither name is unchecked.
func (w *world) boardsRenamed(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, s := range b.Solvers {
		names[s.Name] = true
	}
	for _, a := range b.Authors {
		names[a.Name] = true
	}
	if names[w.me.Name] && !names[w.names[0]] {
		return verdict.Failf("FORGE-NICKNAME-PATCH", w.names[0], w.me.Name, "the agent's row on GET /api/leaderboards after the rename")
	}
	return nil
}

// unauthenticated calls every authenticated capability without a key,
// with a wrong one, with keys next to the agent's (nearKeys) and with the
// agent's own key under another scheme or none (otherSchemes).
func (w *world) unauthenticated(ctx context.Context) error {
	calls := []driver.Request{
		{Method: http.MethodGet, Path: "/api/agent"}, {Method: http.MethodGet, Path: "/api/progress"},
		{Method: http.MethodPost, Path: "/api/sessions", Raw: []byte(`{}`)},
		{Method: http.MethodPost, Path: "/api/sessions/none/query", JSON: map[string]any{"input": []int{1}}},
		{Method: http.MethodPost, Path: "/api/sessions/none/submit", JSON: map[string]any{"outputs": []int{}}},
		{Method: http.MethodPost, Path: "/api/levels", JSON: map[string]any{}, Header: map[string]string{"Idempotency-Key": "kit-unauth-" + randomHex(4)}},
	}
	auths := []string{"", "Bearer forge_not_a_key_" + randomHex(8)}
	for _, a := range w.nearKeys() {
		auths = append(auths, "Bearer "+a.Key)
	}
	for _, auth := range append(auths, w.otherSchemes()...) {
		for _, req := range calls {
			req.Header = map[string]string{}
			if auth != "" {
				req.Header["Authorization"] = auth
			}
			if req.Path == "/api/levels" {
				req.Header["Idempotency-Key"] = "kit-unauth-" + randomHex(4)
			}
			resp, err := w.do(ctx, nil, req)
			if err != nil {
				return err
			}
			w.answers = append(w.answers, resp)
		}
	}
	return nil
}

// otherSchemes are Authorization headers carrying the agent's own key
// under a scheme other than Bearer, and under none: a request without a
// Bearer key, which a deployment reading the header's last word takes for
// one (FORGE-AUTH-REQUIRED; docs/detection.md, forge round 6). The Bearer
// scheme itself is case-insensitive (RFC 9110 section 11.1), so no casing
// of it is sent here. None without a registered agent.
func (w *world) otherSchemes() []string {
	if w.me == nil || w.me.Key == "" {
		return nil
	}
	return []string{"Token " + w.me.Key, w.me.Key}
}

// nearKeys are wrong keys next to the agent's own: its key with the last
// character changed, and its key without it. A deployment that finds the
// agent by a prefix of the key, or compares fewer characters than the key
// has, takes them for it (FORGE-AUTH-REQUIRED; docs/detection.md, forge
// round 4). None without a registered agent.
func (w *world) nearKeys() []*agent {
	if w.me == nil || len(w.me.Key) < 2 {
		return nil
	}
	k := w.me.Key
	last := byte('0')
	if k[len(k)-1] == '0' {
		last = '1'
	}
	return []*agent{{Key: k[:len(k)-1] + string(last)}, {Key: k[:len(k)-1]}}
}

func (w *world) all401() error {
	for _, r := range w.answers {
		if r.Status != http.StatusUnauthorized {
			return verdict.Failf("FORGE-AUTH-REQUIRED", 401, r.Status, "an unauthenticated call was not refused: %s", w.env.HTTP.Secrets().Clip(r.Body))
		}
	}
	return nil
}

// identitySteps registers the steps of features/forge/identity.feature.
func (w *world) identitySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent's own key is accepted as a Bearer token$`), w.bearerAccepted)
	sc.Step(pattern(`^the agent calls every read the API description lists, as itself$`), w.readEveryListedGet)
	sc.Step(pattern(`^the agent registers again under its own nickname$`), w.registerAgain)
	sc.Step(pattern(`^no answer carried the agent's key$`), w.keyNeverBack)
	sc.Step(pattern(`^the agent reads itself, its progress and renames itself, then reads the public boards$`), w.readsAndRenames)
	sc.Step(pattern(`^the agent renames itself to a free nickname and another agent registers with it$`), w.renameThenRegister)
	sc.Step(pattern(`^only the registration carried the apiKey$`), w.keyOnlyOnce)
	sc.Step(pattern(`^another agent registers with the same nickname$`), w.registerSameName)
	sc.Step(pattern(`^the registration is refused with status 409 and code NICKNAME_TAKEN$`), w.refusedTaken("FORGE-NICKNAME-UNIQUE"))
	sc.Step(pattern(`^agents register with nicknames of 40 and 41 code points$`), w.registerLengths)
	sc.Step(pattern(`^the 40-code-point nickname is accepted and the 41 refused$`), w.lengthsJudged)
	sc.Step(pattern(`^the agent renames itself to a free nickname and then to a taken one$`), w.renames)
	sc.Step(pattern(`^the first rename is applied and the second refused with 409 NICKNAME_TAKEN$`), w.renamesJudged)
	sc.Step(pattern(`^the authenticated endpoints are called without a key and with a wrong key$`), w.unauthenticated)
	sc.Step(pattern(`^every call is refused with status 401$`), w.all401)
}

// The checks here each look at one rule's own condition first, so that a
// target breaking that rule alone is named for it rather than for a
// neighbouring rule: the key's recovery (FORGE-KEY-UNRECOVERABLE), the
// Bearer scheme (FORGE-BEARER), a level chosen through the query string
// (FORGE-NO-LEVEL-SELECTION), a cleared level still shown
// (FORGE-SESSION-PUBLIC-VIEW), two agents' chains (FORGE-CHAIN-LINEAR), a
// level changing under an agent (FORGE-PUBLISHED-IMMUTABLE) and the source
// schema's difficulty (FORGE-LEGACY-DIFFICULTY-SCHEMA).

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
		if where := carriesKey(r, w.me.Key); where != "" {
			w.note("FORGE-KEY-ONCE", "no answer after the registration carries the apiKey", "the apiKey again", "a later answer returned it")
			return verdict.Failf("FORGE-KEY-UNRECOVERABLE", "no endpoint returns the key after registration", "the key",
				"an answer (status %d) after the registration carried the agent's key in its %s", r.Status, where)
		}
	}
	return nil
}
