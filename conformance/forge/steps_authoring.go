package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// authoringSteps registers the steps of features/forge/authoring.feature.
func (w *world) authoringSteps(sc *suite.ScenarioContext) {
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
	sc.Step(pattern(`^the agent sends a package its examples contradict under keys of 8, 20 and 128 characters$`), w.boundaryKeys)
	sc.Step(pattern(`^the three answers are the same refusal and the chain is unchanged$`), w.boundaryKeysJudged)
	sc.Step(pattern(`^the runner's authored level$`), w.theAuthoredLevel)
	sc.Step(pattern(`^the author retries it with the same key, with another difficulty, with another body and with its keys reordered$`), w.retries)
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

// rejectedJudged: a rejected package appends nothing; the code is the
// kit's choice and only warns.
func (w *world) rejectedJudged(ctx context.Context, want string) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	for i, resp := range w.answers {
		r := w.readings[i]
		if resp.Status/100 != 4 {
			return verdict.Failf(r.rule, "the package rejected", resp.Status, "package %d of %d: %s", i+1, len(w.answers), w.env.HTTP.Secrets().Clip(resp.Body))
		}
		if i == 0 {
			r.code = want
		}
		if got := code(resp); got != r.code {
			w.note("FORGE-REF-ERROR-CODES", r.code, got, "the rejection's code")
		}
	}
	if err := w.edgeJudged(); err != nil {
		return err
	}
	return w.chainUnchanged(ctx, w.rule)
}

// malformedKeys sends an acceptable package under keys the contract's
// format excludes; a deployment that ignored the format would append, so
// a live target is only asked with --allow-authoring.
func (w *world) malformedKeys(ctx context.Context) error {
	if err := w.kitDSL(ctx); err != nil {
		return err
	}
	if w.env.Live() && !w.env.Settings.Bool(allowAuthoringFlag.Name) {
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

// boundaryKeys sends one package its examples contradict (a rejection
// appends nothing, so any target is asked) under keys of exactly 8, 20 and
// 128 printable ASCII characters, the contract's bounds and a key between
// them (FORGE-IDEMPOTENCY-KEY-FORMAT). Each key is fresh, so the package
// is judged the same way three times unless a key itself is refused.
func (w *world) boundaryKeys(ctx context.Context) error {
	if err := w.kitDSL(ctx); err != nil {
		return err
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	body, _, _ := wrongReading("mod", rngFor(w.env.Seed))
	for _, n := range []int{20, 8, 128} {
		key := "kit:" + randomHex(64)
		resp, err := w.publish(ctx, w.me, key[:n], body)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

// boundaryKeysJudged: the 8- and 128-character keys get the answer the
// 20-character key got (the same status and code): the package's own
// refusal, not a refusal of the key.
func (w *world) boundaryKeysJudged(ctx context.Context) error {
	control := w.answers[0]
	if control.Status/100 != 4 {
		return verdict.Failf("FORGE-DSL-MOD-NONNEG", "the package rejected", control.Status, "%s", w.env.HTTP.Secrets().Clip(control.Body))
	}
	for i, n := range []int{8, 128} {
		r := w.answers[i+1]
		if r.Status != control.Status || code(r) != code(control) {
			return verdict.Failf("FORGE-IDEMPOTENCY-KEY-FORMAT", fmt.Sprintf("the answer a 20-character key got (%d %s)", control.Status, code(control)),
				fmt.Sprintf("%d %s", r.Status, code(r)), "the same package under a key of exactly %d characters: %s", n, w.env.HTTP.Secrets().Clip(r.Body))
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
	if w.env.Live() && !w.env.Settings.Bool(allowAuthoringFlag.Name) {
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
	resp, err := w.sendWaiting(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/levels", Raw: reordered(w.authored.body),
		Header: map[string]string{"Idempotency-Key": w.authored.key, "Content-Type": "application/json"}, Allow: []int{429}})
	w.answers = append(w.answers, resp)
	if err != nil {
		return err
	}
	return w.retryRenamed(ctx)
}

// retryRenamed renames the author, retries the level with the same key
// and body, and renames it back: the key is scoped to the authenticated
// agent, which a rename does not change, so the retry is a replay; a
// deployment keying its store on the nickname appends the level again
// (FORGE-IDEMPOTENT-REPLAY; docs/detection.md, forge round 6). A refused
// rename leaves the retry out (nil among w.answers).
func (w *world) retryRenamed(ctx context.Context) error {
	name := w.me.Name
	renamed, err := w.do(ctx, w.me, driver.Request{Method: http.MethodPatch, Path: "/api/agent", JSON: map[string]string{"name": name + "-r"}})
	if err != nil {
		return err
	}
	if renamed.Status/100 != 2 {
		w.answers = append(w.answers, nil)
		return nil
	}
	resp, err := w.publish(ctx, w.me, w.authored.key, w.authored.body)
	w.answers = append(w.answers, resp)
	back, berr := w.do(ctx, w.me, driver.Request{Method: http.MethodPatch, Path: "/api/agent", JSON: map[string]string{"name": name}})
	if berr == nil && back.Status/100 != 2 {
		w.me.Name = name + "-r" // the rename back was refused: the author keeps the new name
	}
	if err != nil {
		return err
	}
	return berr
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
	if r := w.answers[3]; !w.samePublication(r) {
		if r.Status != http.StatusConflict || code(r) != "IDEMPOTENCY_KEY_REUSED" {
			return verdict.Failf("FORGE-IDEMPOTENT-REPLAY", "the original publication, or 409 IDEMPOTENCY_KEY_REUSED where key order counts",
				r.Status, "the same body with its keys reordered, under the same key: %s", w.env.HTTP.Secrets().Clip(r.Body))
		}
		w.note("FORGE-REF-IDEMPOTENCY-NORMALIZED", "the original publication", r.Status,
			"the same body with its keys reordered is another body here; the seed leaves the normalization open, so this is unchecked")
	}
	if r := w.answers[4]; r != nil && !w.samePublication(r) {
		return verdict.Failf("FORGE-IDEMPOTENT-REPLAY", "the original publication: a rename leaves the agent, and its keys, the same",
			r.Status, "the same key and body after the author's rename: %s", w.env.HTTP.Secrets().Clip(r.Body))
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

// authorWalks has the author clear every level before its own.
func (w *world) authorWalks(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	w.Before = 0
	for n := 0; p.CurrentLevel != nil && p.progress() < w.authored.position; n++ {
		if w.env.Live() && n >= liveLevelCap {
			return verdict.Skipf("the author's level lies beyond the %d levels a live run solves", liveLevelCap)
		}
		_, d, err := w.clear(ctx, w.me, 0)
		if err != nil {
			return err
		}
		w.Before++
		p = d.Progress
	}
	return nil
}

// reordered writes p as JSON with every object's keys in reverse order and
// spaces between tokens: the same JSON value in other bytes, a retry the
// kit's normalization takes for the same body (FORGE-REF-IDEMPOTENCY-NORMALIZED).
func reordered(p pkg) []byte {
	raw, _ := json.Marshal(p)
	var v any
	_ = json.Unmarshal(raw, &v)
	var b strings.Builder
	writeReversed(&b, v)
	return []byte(b.String())
}

func writeReversed(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Sort(sort.Reverse(sort.StringSlice(keys)))
		b.WriteString("{ ")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(" , ")
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteString(" : ")
			writeReversed(b, x[k])
		}
		b.WriteString(" }")
	case []any:
		b.WriteString("[ ")
		for i, c := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeReversed(b, c)
		}
		b.WriteString(" ]")
	default:
		raw, _ := json.Marshal(x)
		b.Write(raw)
	}
}
