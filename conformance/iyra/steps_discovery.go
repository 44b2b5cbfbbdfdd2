package iyra

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// readVersion reads the assigned version with an optional include layer (IYRA-STORE-VERSION).
func (w *world) readVersion(ctx context.Context, include string) error {
	path := "/store/" + Slug + "/versions/" + url.PathEscape(w.id.Version)
	w.include = include
	if include != "" {
		path += "?include=" + url.QueryEscape(include)
	}
	return w.get(path, false)(ctx)
}

// previewNames checks the preview is pre-registration and names the game
// and its version (IYRA-PLAY-PREVIEW).
func (w *world) previewNames(slug string) error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	if at(m, "accepted") != false || str(at(m, "game", "slug")) != slug || str(at(m, "game", "version_id")) == "" {
		return verdict.Failf("IYRA-PLAY-PREVIEW", "accepted false, game.slug "+slug+", a game.version_id", clip(w.Last.Body), "preview")
	}
	return nil
}

// previewContract checks the contract states objective, legal actions and
// limits (IYRA-PLAY-PREVIEW).
func (w *world) previewContract() error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	c, _ := at(m, "game", "gameplay_contract").(map[string]any)
	return contractStates("IYRA-PLAY-PREVIEW", c, w.Last.Body)
}

// storeEntry checks the store entry names the game and links it (IYRA-STORE-DETAIL).
func (w *world) storeEntry() error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	if str(m["slug"]) != Slug || str(m["version_id"]) == "" || str(m["assignment_url"]) == "" || str(m["sessions_url"]) == "" {
		return verdict.Failf("IYRA-STORE-DETAIL", "slug, version_id, assignment_url, sessions_url", clip(w.Last.Body), "store entry")
	}
	return nil
}

// versionDefault checks the default projection is the exact version and
// holds no strategy or audit content (IYRA-STORE-VERSION), under the
// layers' own names or, searched by value, under any other; the name of
// the view is the kit's reading (IYRA-STORE-LAYERS).
func (w *world) versionDefault(ctx context.Context, view string) error {
	if err := w.versionExact(); err != nil {
		return err
	}
	def := w.Last
	m, _ := jsonObject("", def)
	if m["learning"] != nil || m["audit"] != nil || at(m, "gameplay_contract", "learning", "strategies") != nil ||
		at(m, "gameplay_contract", "audit") != nil {
		return verdict.Failf(w.rule(), "no learning strategies or audit commentary without an include", clip(def.Body), "version document")
	}
	for _, layer := range []string{"learning", "audit"} {
		texts, err := w.optInTexts(ctx, layer)
		if err != nil {
			return err
		}
		for _, t := range texts {
			if strings.Contains(string(def.Body), jsonText(t)) {
				return verdict.Failf(w.rule(), "no "+layer+" content without an include", t, "the default projection repeats a text only include=%s answers", layer)
			}
		}
	}
	if got := str(m["gameplay_contract_view"]); got != view {
		w.note("IYRA-STORE-LAYERS", view, got, "gameplay_contract_view of the default projection")
	}
	return nil
}

// optInMinLength is the shortest text an opt-in layer is searched for: a
// strategy or a commentary is a sentence, and shorter values (ids, site
// names, an algorithm's name) are vocabulary the whole contract shares.
const optInMinLength = 24

// optInTexts reads the assigned version with include=layer and returns
// the texts of its layer object (m[layer], the kit's shape) that its own
// gameplay_contract does not carry: what only the opt-in adds. The
// contract's first-move example stays in the rules projection ("preserves
// ... optional first-move example"), so it is never among them. A layer
// the target does not offer, or keeps elsewhere, gives none.
func (w *world) optInTexts(ctx context.Context, layer string) ([]string, error) {
	path := "/store/" + Slug + "/versions/" + url.PathEscape(w.id.Version) + "?include=" + layer
	resp, err := w.do(ctx, driver.Request{Method: http.MethodGet, Path: path})
	if err != nil {
		var skipped *verdict.Skipped
		if errors.As(err, &skipped) {
			return nil, nil // a layer not served adds nothing to search for
		}
		return nil, err
	}
	m, err := jsonObject("", resp)
	if resp.Status != http.StatusOK || err != nil {
		return nil, nil
	}
	inContract := map[string]bool{}
	for _, s := range stringsIn(m["gameplay_contract"]) {
		inContract[s] = true
	}
	var out []string
	for _, s := range stringsIn(m[layer]) {
		if len(s) >= optInMinLength && !inContract[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

// stringsIn lists the string values at any depth of a JSON value.
func stringsIn(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case map[string]any:
		var out []string
		for _, c := range t {
			out = append(out, stringsIn(c)...)
		}
		return out
	case []any:
		var out []string
		for _, c := range t {
			out = append(out, stringsIn(c)...)
		}
		return out
	}
	return nil
}

// versionExact checks a version document answers the assigned version with
// its gameplay_contract (IYRA-STORE-VERSION).
func (w *world) versionExact() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 == 4 && w.include == "audit" {
		// The contract marks the audit layer optional.
		return verdict.Skipf("unchecked: the target does not offer the optional audit layer (status %d)", w.Last.Status)
	}
	m, err := w.ok200()
	if err != nil {
		return err
	}
	if str(m["version_id"]) != w.id.Version {
		return verdict.Failf("IYRA-STORE-VERSION", w.id.Version, str(m["version_id"]), "the exact version asked for")
	}
	if _, ok := m["gameplay_contract"].(map[string]any); !ok {
		return verdict.Failf("IYRA-STORE-VERSION", "a gameplay_contract object", clip(w.Last.Body), "version document")
	}
	return nil
}

// versionLayer checks an opt-in layer is a top-level object named after it
// (IYRA-STORE-LAYERS, the kit's shape for layers the contract marks optional).
func (w *world) versionLayer(layer string) error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	if _, ok := m[layer].(map[string]any); !ok {
		return verdict.Failf("IYRA-STORE-LAYERS", "a "+layer+" object", clip(w.Last.Body), "include=%s", layer)
	}
	return nil
}

// assignmentExact checks the assignment's exact version and contract (IYRA-ASSIGNMENT-EXACT).
func (w *world) assignmentExact() error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	if str(m["version_id"]) == "" {
		return verdict.Failf("IYRA-ASSIGNMENT-EXACT", "a version_id", clip(w.Last.Body), "assignment")
	}
	c, _ := m["gameplay_contract"].(map[string]any)
	return contractStates("IYRA-ASSIGNMENT-EXACT", c, w.Last.Body)
}

// assignmentLimits checks the declared limits (IYRA-LIMITS).
func (w *world) assignmentLimits(steps, seconds int) error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	gotSteps, _ := at(m, "gameplay_contract", "limits", "max_steps").(float64)
	gotSecs, _ := at(m, "gameplay_contract", "limits", "max_duration_seconds").(float64)
	if int(gotSteps) != steps || int(gotSecs) != seconds {
		return verdict.Failf("IYRA-LIMITS", map[string]int{"max_steps": steps, "max_duration_seconds": seconds}, at(m, "gameplay_contract", "limits"), "limits")
	}
	return nil
}

// trustDocument checks the public trust document (IYRA-TRUST).
func (w *world) trustDocument() error {
	m, err := w.ok200()
	if err != nil {
		return err
	}
	if str(m["operator"]) == "" || at(m, "recovery", "automatic_write_retry") != false {
		return verdict.Failf("IYRA-TRUST", "operator and recovery.automatic_write_retry false", clip(w.Last.Body), "trust document")
	}
	return nil
}

// openAPIClean returns the first OpenAPI finding of the scenario.
func (w *world) openAPIClean() error {
	rec := w.env.HTTP.Recorder()
	if rec == nil {
		return verdict.Errorf("no transcript recorder")
	}
	if len(rec.Exchanges()) == 0 {
		return verdict.Errorf("no response to validate")
	}
	if f := rec.Findings(); len(f) > 0 {
		return f[0]
	}
	return nil
}

// answersObject requires a 200 answer whose body is a JSON object: the
// contract publishes the URL, so it must answer (IYRA-PUBLISHED-URLS); what
// the object holds is the kit's choice (IYRA-TRUST, IYRA-STORE-DETAIL).
func (w *world) answersObject() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf(w.rule(), 200, w.Last.Status, "%s", clip(w.Last.Body))
	}
	_, err := jsonObject(w.rule(), w.Last)
	return err
}

// discoverySteps registers the steps of features/iyra/discovery.feature.
func (w *world) discoverySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent reads the play preview$`), w.get("/tasks/play?slug="+Slug+"&campaign=challenge-play-w1", false))
	sc.Step(pattern(`^the agent reads the store entry$`), w.get("/store/"+Slug, false))
	sc.Step(pattern(`^the agent reads the trust document$`), w.get("/trust", false))
	sc.Step(pattern(`^it answers 200 with a JSON object$`), w.answersObject)
	sc.Step(pattern(`^the agent reads the assigned version with include "([^"]*)"$`), w.readVersion)
	sc.Step(pattern(`^the version document is the assigned version$`), w.versionExact)
	sc.Step(pattern(`^the preview is not yet accepted and names the game "([^"]*)"$`), w.previewNames)
	sc.Step(pattern(`^the preview's contract states the objective, legal actions and limits$`), w.previewContract)
	sc.Step(pattern(`^the store entry names the game and its version with links$`), w.storeEntry)
	sc.Step(pattern(`^the version document is the "([^"]*)" without learning content$`), w.versionDefault)
	sc.Step(pattern(`^the version document carries the "([^"]*)" layer$`), w.versionLayer)
	sc.Step(pattern(`^the assignment names an exact version_id with its gameplay_contract$`), w.assignmentExact)
	sc.Step(pattern(`^the assigned contract limits are (\d+) steps and (\d+) seconds$`), w.assignmentLimits)
	sc.Step(pattern(`^the trust document names the operator and declares automatic_write_retry false$`), w.trustDocument)
	sc.Step(pattern(`^every response so far matched the OpenAPI document$`), w.openAPIClean)
}
