package forge

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// authored is the run's one logical level: who wrote it, the key and body
// it went under, and the publication it got.
type authored struct {
	author   *agent
	key      string
	body     pkg
	levelID  string
	position int
	accepted int // levels this author got appended in the run
}

// publication reads a 2xx answer of POST /api/levels.
type publication struct {
	Publication struct {
		LevelID  string `json:"levelId"`
		Position int    `json:"position"`
		Author   string `json:"author"`
	} `json:"publication"`
}

func (w *world) authoringSteps(sc *godog.ScenarioContext) {
	kinds := map[string]string{
		"without its private part":                                   "schema",
		"whose oracle takes a modulo by zero":                        "types",
		"whose oracle fails on legal inputs its examples avoid":      "runs",
		"whose oracle continues after rle":                           "rle",
		"whose example lies outside its input domain":                "bounds",
		"whose oracle overflows, with examples computed by wrapping": "overflow",
		"whose oracle exceeds the execution budget":                  "budget",
		"whose examples take the dividend's sign in mod":             "mod",
		"whose examples take deltas as current minus next":           "delta",
		"whose examples drop a partial chunk the oracle keeps":       "chunk",
	}
	sc.Step(pattern(`^the agent submits a package (.+)$`), func(ctx context.Context, what string) error {
		kind, ok := kinds[what]
		if !ok {
			return verdict.Errorf("no package %q", what)
		}
		return w.submitWrong(ctx, kind)
	})
	sc.Step(pattern(`^the package is rejected with code (\w+) and the chain is unchanged$`), w.rejectedJudged)
	sc.Step(pattern(`^the agent submits an acceptable package under malformed Idempotency-Keys$`), w.malformedKeys)
	sc.Step(pattern(`^every attempt is refused and the chain is unchanged$`), w.allRefused)
	sc.Step(pattern(`^the runner's authored level$`), w.theAuthoredLevel)
	sc.Step(pattern(`^the author retries it with the same key, with another difficulty, and with another body$`), w.retries)
	sc.Step(pattern(`^the retries return the original publication or 409 IDEMPOTENCY_KEY_REUSED and append nothing$`), w.retriesJudged)
	sc.Step(pattern(`^another agent's equal key is not a replay of the author's$`), w.scopeJudged)
	sc.Step(pattern(`^the author submits its content under a new id and new content under its id$`), w.duplicates)
	sc.Step(pattern(`^both are rejected and the chain is unchanged$`), w.duplicatesJudged)
	sc.Step(pattern(`^the author publishes a repaired copy under a new id$`), w.repair)
	sc.Step(pattern(`^the repair is appended at the tail and the original keeps its position$`), w.repairJudged)
	sc.Step(pattern(`^the author plays the chain up to its own level$`), w.authorWalks)
	sc.Step(pattern(`^the author ranking counts the level once$`), w.authorRankJudged)
	sc.Step(pattern(`^the author's progress skips its own level as skipped, not cleared$`), w.selfSkipJudged)
}

// kitDSL reports whether the target serves the kit's dsl.md; authoring
// checks skip otherwise, saying why (FORGE-REF-DSL).
func (w *world) kitDSL(ctx context.Context) error {
	v, err := w.env.Shared.Once("forge-kit-dsl", func() (any, error) {
		resp, err := w.do(ctx, nil, driver.Request{Method: http.MethodGet, Path: "/spec/dsl.md"})
		if err != nil {
			return nil, err
		}
		return resp.Status == http.StatusOK && strings.Contains(string(resp.Body), kitDSLMarker), nil
	})
	if err != nil {
		return err
	}
	if !v.(bool) {
		return verdict.Skipf("the target's /spec/dsl.md is not the kit's DSL, so the kit's packages mean nothing there")
	}
	return nil
}

// publish sends a package under key as a, waiting out a 429's
// Retry-After a few times: a rate-limited package was not judged, so
// sending it again under the same key is safe (FORGE-RATE-LIMIT); a target
// still rate-limiting is a harness error, never a verdict on the package.
func (w *world) publish(ctx context.Context, a *agent, key string, body pkg) (*driver.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := w.do(ctx, a, driver.Request{Method: http.MethodPost, Path: "/api/levels", JSON: body,
			Header: map[string]string{"Idempotency-Key": key}, Allow: []int{429}})
		if err != nil || resp.Status != http.StatusTooManyRequests {
			return resp, err
		}
		if attempt >= 5 {
			return nil, verdict.Errorf("POST /api/levels still answers 429 after %d waits for Retry-After", attempt)
		}
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		select {
		case <-ctx.Done():
			return nil, verdict.Errorf("waiting for Retry-After: %v", ctx.Err())
		case <-time.After(time.Duration(max(wait, 1)) * time.Second):
		}
	}
}

func (w *world) submitWrong(ctx context.Context, kind string) error {
	if err := w.kitDSL(ctx); err != nil {
		return err
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	body, rule, _ := wrongReading(kind, rngFor(w.env.Seed))
	w.rule = rule
	resp, err := w.publish(ctx, w.me, "kit-"+randomHex(8), body)
	w.Last = resp
	return err
}

// rejectedJudged: a rejected package appends nothing; the code is the
// kit's choice and only warns.
func (w *world) rejectedJudged(ctx context.Context, want string) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule, "the package rejected", w.Last.Status, "%s", w.env.HTTP.Secrets().Clip(w.Last.Body))
	}
	if got := code(w.Last); got != want {
		w.note("FORGE-REF-ERROR-CODES", want, got, "the rejection's code")
	}
	return w.chainUnchanged(ctx, w.rule)
}

func (w *world) chainUnchanged(ctx context.Context, rule string) error {
	after, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	if after != w.Before {
		return verdict.Failf(rule, w.Before, after, "the chain length changed")
	}
	return nil
}

// malformedKeys sends an acceptable package under keys the contract's
// format excludes; a deployment that ignored the format would append, so
// a live target is only asked with --allow-authoring.
func (w *world) malformedKeys(ctx context.Context) error {
	if err := w.kitDSL(ctx); err != nil {
		return err
	}
	if w.env.Live() && !allowAuthoring.Load() {
		return verdict.Skipf("a deployment ignoring the key format would append the level; run with --allow-authoring")
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	body := acceptable(rngFor(w.env.Seed))
	for _, key := range []string{"short12", strings.Repeat("k", 129), "kit-é-" + randomHex(4)} {
		resp, err := w.publish(ctx, w.me, key, body)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

func (w *world) allRefused(ctx context.Context) error {
	for _, r := range w.answers {
		if r.Status/100 != 4 {
			return verdict.Failf("FORGE-IDEMPOTENCY-KEY-FORMAT", "a malformed key refused", r.Status, "%s", w.env.HTTP.Secrets().Clip(r.Body))
		}
	}
	return w.chainUnchanged(ctx, "FORGE-IDEMPOTENCY-KEY-FORMAT")
}

// theAuthoredLevel publishes the run's one logical level once, shared by
// every scenario that needs it (authoring.maxLogicalLevelsPerRun is 1).
func (w *world) theAuthoredLevel(ctx context.Context) error {
	if err := w.kitDSL(ctx); err != nil {
		return err
	}
	if w.env.Live() && !allowAuthoring.Load() {
		return verdict.Skipf("appending a level to a live chain is permanent; run with --allow-authoring to allow one")
	}
	v, err := w.env.Shared.Once("forge-authored", func() (any, error) { return w.authorOnce(ctx) })
	if err != nil {
		return err
	}
	w.authored = v.(*authored)
	w.me = w.authored.author
	w.keys = append(w.keys, w.me.Key)
	return nil
}

// authorOnce appends one level as a fresh agent, which has solved nothing
// (FORGE-AUTHOR-ELIGIBILITY), retrying a request whose fate is unknown
// with the same key (FORGE-IDEMPOTENT-REPLAY).
func (w *world) authorOnce(ctx context.Context) (*authored, error) {
	a, err := w.register(ctx, "author")
	if err != nil {
		return nil, err
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return nil, err
	}
	au := &authored{author: a, key: "kit-level-" + randomHex(12), body: acceptable(rngFor(w.env.Seed))}
	resp, err := w.publishNamingPosition(ctx, au, before)
	if err == nil && resp == nil {
		resp, err = w.publish(ctx, a, au.key, au.body)
		var he *verdict.HarnessError
		if err != nil && errorAs(err, &he) {
			resp, err = w.publish(ctx, a, au.key, au.body)
		}
	}
	if err != nil {
		return nil, err
	}
	if resp.Status == http.StatusForbidden {
		return nil, verdict.Failf("FORGE-AUTHOR-ELIGIBILITY", "any active authenticated agent may author", resp.Status,
			"a new agent with no solves: %s", w.env.HTTP.Secrets().Clip(resp.Body))
	}
	if resp.Status/100 != 2 {
		return nil, verdict.Failf("FORGE-APPEND", "an acceptable package appended", resp.Status, "%s", w.env.HTTP.Secrets().Clip(resp.Body))
	}
	var pub publication
	if err := resp.Decode("FORGE-APPEND", &pub); err != nil {
		return nil, err
	}
	au.levelID, au.position, au.accepted = pub.Publication.LevelID, pub.Publication.Position, 1
	if named, ok := au.body["position"].(int); ok && au.position == named && named != before+1 {
		w.note("FORGE-POSITION-TAIL", before+1, au.position, "the publication's position")
		return nil, verdict.Failf("FORGE-SERVER-POSITION", "the named position refused or ignored", au.position,
			"a package naming position %d was published there", named)
	}
	if au.position != before+1 {
		return nil, verdict.Failf("FORGE-POSITION-TAIL", before+1, au.position, "the publication's position")
	}
	if pub.Publication.Author != "" && pub.Publication.Author != a.Name && pub.Publication.Author != a.ID {
		return nil, verdict.Failf("FORGE-AUTHOR-BOUND", a.Name, pub.Publication.Author, "the publication's author")
	}
	after, err := w.chainLength(ctx)
	if err == nil && after != before+1 {
		err = verdict.Failf("FORGE-APPEND", before+1, after, "the chain length after one accepted package")
	}
	return au, err
}

// positionAhead is how far past the tail the runner's first attempt asks
// its level to go: a target honouring it is told apart from one appending
// at the tail, and the level would sit past every agent's progress.
const positionAhead = 100

// publishNamingPosition first sends the logical level naming a position of
// its own (FORGE-SERVER-POSITION: the package is refused or the position
// ignored), under a key of its own. A refusal appends nothing and answers
// nil, so the level then goes out as usual; an acceptance is the run's one
// logical level, and au takes the key and body it went under.
func (w *world) publishNamingPosition(ctx context.Context, au *authored, before int) (*driver.Response, error) {
	named := clone(au.body)
	named["position"] = before + positionAhead
	key := "kit-level-" + randomHex(12)
	resp, err := w.publish(ctx, au.author, key, named)
	if err != nil || resp.Status/100 != 2 {
		return nil, err
	}
	au.key, au.body = key, named
	return resp, nil
}

func errorAs(err error, target **verdict.HarnessError) bool {
	he, ok := err.(*verdict.HarnessError)
	if ok {
		*target = he
	}
	return ok
}

// clone deep-copies a package through JSON.
func clone(p pkg) pkg {
	raw, _ := json.Marshal(p)
	var out pkg
	_ = json.Unmarshal(raw, &out)
	return out
}

func (w *world) retries(ctx context.Context) error {
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	other := clone(w.authored.body)
	other["difficulty"] = 7
	changed := clone(w.authored.body)
	changed["public"].(map[string]any)["title"] = "Another body " + randomHex(4)
	for _, body := range []pkg{w.authored.body, other, changed} {
		resp, err := w.publish(ctx, w.me, w.authored.key, body)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

// samePublication reports whether resp returned the original publication.
func (w *world) samePublication(resp *driver.Response) bool {
	var pub publication
	return resp.Status/100 == 2 && json.Unmarshal(resp.Body, &pub) == nil &&
		pub.Publication.LevelID == w.authored.levelID && pub.Publication.Position == w.authored.position
}

func (w *world) retriesJudged(ctx context.Context) error {
	if !w.samePublication(w.answers[0]) {
		return verdict.Failf("FORGE-IDEMPOTENT-REPLAY", "the original publication", w.answers[0].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[0].Body))
	}
	if !w.samePublication(w.answers[1]) {
		return verdict.Failf("FORGE-LEGACY-DIFFICULTY-REMOVED", "the original publication: difficulty is removed before comparison",
			w.answers[1].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[1].Body))
	}
	if r := w.answers[2]; r.Status != http.StatusConflict || code(r) != "IDEMPOTENCY_KEY_REUSED" {
		return verdict.Failf("FORGE-IDEMPOTENCY-REUSED", "409 IDEMPOTENCY_KEY_REUSED", r.Status, "%s", w.env.HTTP.Secrets().Clip(r.Body))
	}
	return w.chainUnchanged(ctx, "FORGE-IDEMPOTENT-REPLAY")
}

func (w *world) scopeJudged(ctx context.Context) error {
	peer, err := w.register(ctx, "peer")
	if err != nil {
		return err
	}
	resp, err := w.publish(ctx, peer, w.authored.key, w.authored.body)
	if err != nil {
		return err
	}
	if w.samePublication(resp) {
		return verdict.Failf("FORGE-IDEMPOTENCY-SCOPE", "another agent's key is another key", "the author's publication", "a replay across agents")
	}
	return w.chainUnchanged(ctx, "FORGE-IDEMPOTENCY-SCOPE")
}

func (w *world) duplicates(ctx context.Context) error {
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	copied := clone(w.authored.body)
	copied["id"] = "kit-" + randomHex(6)
	reused := acceptable(rngFor(w.env.Seed + 1))
	reused["id"] = w.authored.levelID
	for _, body := range []pkg{copied, reused} {
		resp, err := w.publish(ctx, w.me, "kit-"+randomHex(8), body)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

func (w *world) duplicatesJudged(ctx context.Context) error {
	for i, rule := range []string{"FORGE-NO-DUPLICATE-NEW-ID", "FORGE-ID-NOT-OVERWRITTEN"} {
		if r := w.answers[i]; r.Status/100 != 4 {
			return verdict.Failf(rule, "the package rejected", r.Status, "%s", w.env.HTTP.Secrets().Clip(r.Body))
		}
	}
	return w.chainUnchanged(ctx, "FORGE-VALID-DUPLICATE")
}

func (w *world) repair(ctx context.Context) error {
	if w.env.Live() {
		return verdict.Skipf("a repair is a second append; never on a live target")
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	fixed := clone(w.authored.body)
	fixed["id"] = w.authored.levelID + "-r"
	fixed["public"].(map[string]any)["rules"] = "Repaired: " + fixed["public"].(map[string]any)["rules"].(string)
	resp, err := w.publish(ctx, w.me, "kit-repair-"+randomHex(8), fixed)
	w.Last = resp
	if err == nil && resp.Status/100 == 2 {
		w.authored.accepted++
	}
	return err
}

func (w *world) repairJudged(ctx context.Context) error {
	var pub publication
	if w.Last.Status/100 != 2 || w.Last.Decode("FORGE-REPAIR-APPENDS", &pub) != nil || pub.Publication.Position != w.Before+1 {
		return verdict.Failf("FORGE-REPAIR-APPENDS", "the repair at position "+itoa(w.Before+1), w.Last.Status, "%s", w.env.HTTP.Secrets().Clip(w.Last.Body))
	}
	return nil
}
