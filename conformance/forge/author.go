package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// authored is the run's one logical level: who wrote it, the key and body
// it went under, and the publication it got.
type authored struct {
	author   *agent
	impostor *agent // the agent the package names as its author (FORGE-AUTHOR-BOUND)
	key      string
	body     pkg
	levelID  string
	position int
	accepted int    // levels this author got appended in the run
	pubBody  []byte // the publication's answer, searched for private values
}

// publication reads a 2xx answer of POST /api/levels.
type publication struct {
	Publication struct {
		LevelID  string `json:"levelId"`
		Position int    `json:"position"`
		Author   string `json:"author"`
	} `json:"publication"`
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
	return w.sendWaiting(ctx, a, driver.Request{Method: http.MethodPost, Path: "/api/levels", JSON: body,
		Header: map[string]string{"Idempotency-Key": key}, Allow: []int{429}})
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
	w.readings = wrongReadings(kind, rngFor(w.env.Seed))
	w.answers = nil
	for _, r := range w.readings {
		resp, err := w.publish(ctx, w.me, "kit-"+randomHex(8), r.body)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	w.rule, w.Last = w.readings[0].rule, w.answers[0]
	if kind == "delta" {
		for _, body := range []pkg{controlPackage(), deltaEdge()} {
			resp, err := w.publish(ctx, w.me, "kit-"+randomHex(8), body)
			if err != nil {
				return err
			}
			w.edge = append(w.edge, resp)
		}
	}
	return nil
}

// edgeJudged: the delta scenario's short-list package (deltaEdge) gets
// the control's refusal, the same status and code: its contradicting
// example, not a failed run (FORGE-DSL-DELTA-NEXT-MINUS-CURRENT). A
// control not refused is FORGE-VALID-EXAMPLES's; no edge sent, nothing.
func (w *world) edgeJudged() error {
	if len(w.edge) != 2 {
		return nil
	}
	control, edge := w.edge[0], w.edge[1]
	if control.Status/100 != 4 {
		return verdict.Failf("FORGE-VALID-EXAMPLES", "a contradicting example rejected", control.Status, "%s", w.env.HTTP.Secrets().Clip(control.Body))
	}
	want := fmt.Sprintf("%d %s", control.Status, code(control))
	if got := fmt.Sprintf("%d %s", edge.Status, code(edge)); got != want {
		return verdict.Failf("FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", "the control's refusal, "+want+": deltas of one value is []", got,
			"a deltas package over lists of one value, with one contradicting example: %s", w.env.HTTP.Secrets().Clip(edge.Body))
	}
	return nil
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

// authorOnce appends one level as a fresh agent, which has solved nothing
// (FORGE-AUTHOR-ELIGIBILITY), retrying a request whose fate is unknown
// with the same key (FORGE-IDEMPOTENT-REPLAY). Its key is exactly 128
// characters, the longest the contract allows (FORGE-IDEMPOTENCY-KEY-FORMAT).
func (w *world) authorOnce(ctx context.Context) (*authored, error) {
	a, err := w.register(ctx, "author")
	if err != nil {
		return nil, err
	}
	impostor, err := w.register(ctx, "impostor")
	if err != nil {
		return nil, err
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return nil, err
	}
	au := &authored{author: a, impostor: impostor, key: levelKey(), body: acceptable(rngFor(w.env.Seed))}
	resp, err := w.publishNaming(ctx, au, before)
	if err == nil && resp == nil {
		resp, err = w.publishPlain(ctx, au)
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
	return au, w.publishedJudged(ctx, au, resp, before)
}

// publishPlain sends the logical level as it is, once more on a harness
// error (its fate is unknown; the same key makes the retry safe). A
// refusal of the 128-character key is told apart from a refusal of the
// package: the level then goes out under a shorter key, and its
// acceptance there fails FORGE-IDEMPOTENCY-KEY-FORMAT.
func (w *world) publishPlain(ctx context.Context, au *authored) (*driver.Response, error) {
	resp, err := w.publish(ctx, au.author, au.key, au.body)
	var he *verdict.HarnessError
	if err != nil && errorAs(err, &he) {
		resp, err = w.publish(ctx, au.author, au.key, au.body)
	}
	if err != nil || resp.Status/100 != 4 || resp.Status == http.StatusForbidden {
		return resp, err
	}
	short := "kit-level-" + randomHex(12)
	again, err := w.publish(ctx, au.author, short, au.body)
	if err == nil && again.Status/100 == 2 {
		return again, verdict.Failf("FORGE-IDEMPOTENCY-KEY-FORMAT", "a key of 128 printable ASCII characters (punctuation among them) accepted", resp.Status,
			"the package was refused under a 128-character key and accepted under a %d-character one: %s", len(short), w.env.HTTP.Secrets().Clip(resp.Body))
	}
	return resp, err
}

// levelKey is a fresh Idempotency-Key of exactly 128 printable ASCII
// characters, punctuation among them: the contract allows every
// printable character, so a validator of letters, digits, '-' and '_'
// only refuses it (no space: whether "printable" takes in the space is a
// reading the contract leaves open), which publishPlain tells apart from a refusal of
// the package (FORGE-IDEMPOTENCY-KEY-FORMAT; docs/detection.md, forge
// round 6).
func levelKey() string {
	k := "kit-level~!#$%&*+.:;=?@^_|/" + randomHex(59)
	return k[:128]
}

// publishedJudged checks the publication of the run's one level: at the
// tail whatever position the package named, under the key's agent
// whatever author it named, one level longer.
func (w *world) publishedJudged(ctx context.Context, au *authored, resp *driver.Response, before int) error {
	var pub publication
	if err := resp.Decode("FORGE-APPEND", &pub); err != nil {
		return err
	}
	au.levelID, au.position, au.accepted, au.pubBody = pub.Publication.LevelID, pub.Publication.Position, 1, resp.Body
	if named, ok := au.body["position"].(int); ok && au.position == named && named != before+1 {
		w.note("FORGE-POSITION-TAIL", before+1, au.position, "the publication's position")
		return verdict.Failf("FORGE-SERVER-POSITION", "the named position refused or ignored", au.position,
			"a package naming position %d was published there", named)
	}
	if au.position != before+1 {
		return verdict.Failf("FORGE-POSITION-TAIL", before+1, au.position, "the publication's position")
	}
	if pa := pub.Publication.Author; pa != "" && pa != au.author.Name && pa != au.author.ID {
		return verdict.Failf("FORGE-AUTHOR-BOUND", au.author.Name, pa, "the publication's author")
	}
	if err := w.impostorUncredited(ctx, au); err != nil {
		return err
	}
	after, err := w.chainLength(ctx)
	if err == nil && after != before+1 {
		err = verdict.Failf("FORGE-APPEND", before+1, after, "the chain length after one accepted package")
	}
	return err
}

// impostorUncredited reads the author ranking: the agent a package named
// as its author has no accepted level (FORGE-AUTHOR-BOUND). A ranking
// without names (its shape is the kit's choice) shows nothing either way.
func (w *world) impostorUncredited(ctx context.Context, au *authored) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	for _, row := range b.Authors {
		if row.Name == au.impostor.Name && row.AcceptedLevels > 0 {
			return verdict.Failf("FORGE-AUTHOR-BOUND", "the level credited to "+au.author.Name+", whose key sent it", au.impostor.Name,
				"the author ranking credits the agent the package named as its author")
		}
	}
	return nil
}

// positionAhead is how far past the tail the runner's first attempt asks
// its level to go: a target honouring it is told apart from one appending
// at the tail, and the level would sit past every agent's progress.
const positionAhead = 100

// publishNaming first sends the logical level naming a position of its
// own (FORGE-SERVER-POSITION: the package is refused or the position
// ignored), then naming another registered agent as its author
// (FORGE-AUTHOR-BOUND: refused, or bound to the key's agent anyway), each
// under a key of its own. A refusal appends nothing, so the next goes out;
// when both are refused it answers nil and the level goes out as it is.
// An acceptance is the run's one logical level, and au takes the key and
// body it went under.
func (w *world) publishNaming(ctx context.Context, au *authored, before int) (*driver.Response, error) {
	names := []func(pkg){
		func(p pkg) { p["position"] = before + positionAhead },
		func(p pkg) { p["author"] = au.impostor.Name },
	}
	for _, name := range names {
		named := clone(au.body)
		name(named)
		key := levelKey()
		resp, err := w.publish(ctx, au.author, key, named)
		if err != nil || resp.Status/100 == 2 {
			if err == nil {
				au.key, au.body = key, named
			}
			return resp, err
		}
	}
	return nil, nil
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

// samePublication reports whether resp returned the original publication.
func (w *world) samePublication(resp *driver.Response) bool {
	var pub publication
	return resp.Status/100 == 2 && json.Unmarshal(resp.Body, &pub) == nil &&
		pub.Publication.LevelID == w.authored.levelID && pub.Publication.Position == w.authored.position
}
