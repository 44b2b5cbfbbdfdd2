package iyra

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/memo"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra/proof"
	"github.com/agentgames/conformance/reference/pow"
)

// acceptance is the acceptance answer (IYRA-ACCEPT-FIELDS).
type acceptance struct {
	AgentID     string `json:"agent_id"`
	ChallengeID string `json:"challenge_id"`
	Challenge   string `json:"challenge"`
	Difficulty  *int   `json:"difficulty"`
	ExpiresAt   string `json:"expires_at"`
}

// complete reports what acceptance field is missing, "" when none.
func (a *acceptance) complete() string {
	switch {
	case a.AgentID == "":
		return "agent_id"
	case a.ChallengeID == "":
		return "challenge_id"
	case a.Challenge == "":
		return "challenge"
	case a.Difficulty == nil || *a.Difficulty < 0 || *a.Difficulty > proof.MaxDifficulty:
		return "difficulty"
	case a.ExpiresAt == "":
		return "expires_at"
	}
	if _, err := time.Parse(time.RFC3339, a.ExpiresAt); err != nil {
		return "expires_at as RFC 3339"
	}
	return ""
}

// acceptBody is the explicit acceptance of do_this_now.
func acceptBody() map[string]any {
	return map[string]any{"name": "conformance-kit", "model": "agentgames-conformance",
		"capabilities": []string{"game_play"}, "campaign": "challenge-play-w1"}
}

// accept posts an acceptance and returns the raw answer.
func (c *client) accept(ctx context.Context) (*driver.Response, error) {
	return c.do(ctx, driver.Request{Method: http.MethodPost, Path: "/tasks/play/accept", JSON: acceptBody()})
}

// mustAccept accepts and requires a complete answer whose challenge is
// still alive: a challenge that arrives at or past its expires_at cannot
// be used (IYRA-PROOF-EXPIRY; serve --faults issues such ones), so the
// runner accepts again, up to acceptTries times, then skips.
func (c *client) mustAccept(ctx context.Context) (*acceptance, error) {
	for try := 1; ; try++ {
		resp, err := c.accept(ctx)
		if err != nil {
			return nil, err
		}
		a, err := acceptanceOf("IYRA-ACCEPT-FIELDS", resp)
		if err != nil || !c.expiredOnArrival(a) {
			return a, err
		}
		if try == acceptTries {
			return nil, verdict.Skipf("%d acceptances in a row carried a challenge already past its expires_at (%s): no proof can be verified in time", try, a.ExpiresAt)
		}
	}
}

// acceptTries bounds the acceptances mustAccept spends on challenges that
// expire on arrival.
const acceptTries = 3

// expiredOnArrival reports whether a's challenge is already at or past its
// expires_at by the run's clock (the embedded reference's, when it has one).
func (c *client) expiredOnArrival(a *acceptance) bool {
	exp, err := time.Parse(time.RFC3339, a.ExpiresAt)
	if err != nil {
		return false
	}
	now := time.Now()
	if c.env.Clock != nil {
		now = c.env.Clock.Now()
	}
	return !now.Before(exp)
}

// expiryMargin is how close to expires_at a refused verification is
// taken to have possibly arrived too late: the runner's clock and the
// target's may differ by a little.
const expiryMargin = 5 * time.Second

// mayHaveExpired reports whether a's challenge may have expired by the
// time a verification sent now was judged: a slow runner (a loaded
// machine solving a hard proof) may miss expires_at, and then a refusal
// says nothing of IYRA-PROOF-POW.
func (c *client) mayHaveExpired(a *acceptance) bool {
	exp, err := time.Parse(time.RFC3339, a.ExpiresAt)
	if err != nil {
		return false
	}
	now := time.Now()
	if c.env.Clock != nil {
		now = c.env.Clock.Now()
	}
	return !now.Before(exp.Add(-expiryMargin))
}

// refusedLate is the skip for a valid proof refused once its challenge
// may have expired (mayHaveExpired), or nil.
func (c *client) refusedLate(a *acceptance) error {
	if a != nil && c.mayHaveExpired(a) {
		return verdict.Skipf("the challenge's expires_at (%s) passed, or nearly, before the verification was judged: a refusal then is right, and nothing is checked", a.ExpiresAt)
	}
	return nil
}

// acceptanceOf reads a 2xx acceptance carrying every field the contract
// names (IYRA-ACCEPT-FIELDS); any 2xx will do, the exact status is a shape
// choice (IYRA-OPENAPI).
func acceptanceOf(rule string, resp *driver.Response) (*acceptance, error) {
	if resp.Status/100 != 2 {
		return nil, verdict.Failf(rule, "a 2xx acceptance", resp.Status, "%s", clip(resp.Body))
	}
	var a acceptance
	if err := resp.Decode(rule, &a); err != nil {
		return nil, err
	}
	if missing := a.complete(); missing != "" {
		return nil, verdict.Failf(rule, "agent_id, challenge_id, challenge, difficulty, expires_at", clip(resp.Body), "missing or invalid %s", missing)
	}
	return &a, nil
}

// solve computes the proof locally, bounded by ctx.
func solve(ctx context.Context, a *acceptance) (string, error) {
	key := proofKey{a.Challenge, *a.Difficulty}
	if sol, ok := proofs.Get(key); ok {
		return sol, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	sol, err := proof.Solve(ctx, a.Challenge, *a.Difficulty)
	if err != nil {
		return "", verdict.Errorf("solving a difficulty-%d proof locally: %v", *a.Difficulty, err)
	}
	proofs.Put(key, sol)
	return sol, nil
}

// proofKey is a challenge and its difficulty.
type proofKey struct {
	challenge  string
	difficulty int
}

// proofs remembers solved challenges: a seeded reference issues the same
// ones in every run of a seed.
var proofs memo.Cache[proofKey, string]

// verify posts a verification and registers any disclosed key as a secret.
func (c *client) verify(ctx context.Context, agentID, challengeID, solution string) (*driver.Response, string, error) {
	resp, err := c.do(ctx, driver.Request{Method: http.MethodPost, Path: "/agents/verify",
		JSON: map[string]any{"agent_id": agentID, "challenge_id": challengeID, "solution": solution}})
	if err != nil {
		return nil, "", err
	}
	var out struct {
		APIKey string `json:"api_key"`
	}
	_ = json.Unmarshal(resp.Body, &out) // a body without a key is judged by the caller
	c.learnKey(out.APIKey)
	return resp, out.APIKey, nil
}

// register runs acceptance, proof and verification for a new agent and
// reads its assignment.
func (c *client) register(ctx context.Context) (*identity, error) {
	a, err := c.mustAccept(ctx)
	if err != nil {
		return nil, err
	}
	sol, err := solve(ctx, a)
	if err != nil {
		return nil, err
	}
	resp, key, err := c.verify(ctx, a.AgentID, a.ChallengeID, sol)
	if err != nil {
		return nil, err
	}
	if resp.Status/100 != 2 || key == "" {
		if err := c.refusedLate(a); err != nil {
			return nil, err
		}
		return nil, verdict.Failf("IYRA-PROOF-POW", "a verified agent with an api_key", resp.Status, "verify answered %s", clip(resp.Body))
	}
	id := &identity{AgentID: a.AgentID, APIKey: key}
	version, err := c.assignedVersion(ctx, id)
	if err != nil {
		return nil, err
	}
	id.Version = version
	return id, nil
}

// assignedVersion reads the exact version_id assigned to id.
func (c *client) assignedVersion(ctx context.Context, id *identity) (string, error) {
	resp, err := c.do(ctx, driver.Request{Method: http.MethodGet, Path: "/store/" + Slug + "/assignment",
		Header: map[string]string{"Authorization": "Bearer " + id.APIKey}})
	if err != nil {
		return "", err
	}
	var out struct {
		VersionID string `json:"version_id"`
	}
	if err := resp.Decode("IYRA-ASSIGNMENT-EXACT", &out); err != nil {
		return "", err
	}
	if resp.Status != http.StatusOK || out.VersionID == "" {
		return "", verdict.Failf("IYRA-ASSIGNMENT-EXACT", "200 with a version_id", resp.Status, "%s", clip(resp.Body))
	}
	return out.VersionID, nil
}

// liveExpiryWait is how long a live run waits for a challenge to expire:
// a deployment whose challenges live longer gets the check skipped, since
// no live run can move its clock.
const liveExpiryWait = time.Minute

// waitPast waits on a live target until a second after exp, when that is
// within liveExpiryWait; otherwise the check skips (IYRA-PROOF-EXPIRY).
func waitPast(ctx context.Context, exp time.Time) error {
	d := time.Until(exp) + time.Second
	if d > liveExpiryWait {
		return verdict.Skipf("the challenge expires in %s, beyond the %s a live run waits; the embedded reference's clock passes it",
			d.Round(time.Second), liveExpiryWait)
	}
	select {
	case <-time.After(max(d, 0)):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// verifyWith is the When step posting one verification.
func (w *world) verifyWith(ctx context.Context, agentID, challengeID, solution string) error {
	return w.when(ctx, func() (*driver.Response, error) {
		resp, _, err := w.verify(ctx, agentID, challengeID, solution)
		return resp, err
	})
}

// spellings are the non-canonical forms IYRA-PROOF-DECIMAL rejects.
var spellings = map[string]func(n uint64) string{
	"leading-zero": func(n uint64) string { return "0" + strconv.FormatUint(n, 10) },
	"plus-sign":    func(n uint64) string { return "+" + strconv.FormatUint(n, 10) },
	"fraction":     func(n uint64) string { return strconv.FormatUint(n, 10) + ".0" },
	"negative":     func(n uint64) string { return "-" + strconv.FormatUint(n, 10) },
	// past-64-bits is canonical: "2" and 19 digits is at least 2×10^19,
	// above 2^64-1 (IYRA-PROOF-POW, verifyPast64Bits).
	"past-64-bits": func(n uint64) string { return "2" + fmt.Sprintf("%019d", n) },
}

// spellingKey names one qualifying search: its challenge, difficulty,
// spelling and the difficulty the digest must not meet.
type spellingKey struct {
	challenge         string
	difficulty, below int
	form              string
}

// qualified remembers the spellings found: a seeded reference issues the
// same challenges in every run of a seed.
var qualified memo.Cache[spellingKey, string]

// rememberedQualifying is qualifying for the spelling named form
// ("canonical" or a key of spellings), searched once per process.
func rememberedQualifying(ctx context.Context, challenge string, difficulty int, form string, below int) (string, error) {
	key := spellingKey{challenge, difficulty, below, form}
	if s, ok := qualified.Get(key); ok {
		return s, nil
	}
	spell := spellings[form]
	if form == "canonical" {
		spell = func(n uint64) string { return strconv.FormatUint(n, 10) }
	}
	if spell == nil {
		return "", verdict.Errorf("no spelling %q", form)
	}
	s, err := qualifying(ctx, challenge, difficulty, spell, below)
	if err == nil {
		qualified.Put(key, s)
	}
	return s, err
}

// qualifying searches n for the first spelling form(n) whose digest meets
// difficulty and, when below is not negative, does not meet below. The
// digest is judged in its raw bytes (pow.LeadingZeroNibbles, what
// proof.Meets reads in hex), so a try costs one hash and no formatting.
func qualifying(ctx context.Context, challenge string, difficulty int, form func(uint64) string, below int) (string, error) {
	buf := make([]byte, 0, len(challenge)+24)
	for n := uint64(1); ; n++ {
		if n&0xffff == 0 && ctx.Err() != nil {
			return "", verdict.Errorf("searching a qualifying spelling: %v", ctx.Err())
		}
		s := form(n)
		buf = append(append(buf[:0], challenge...), s...)
		sum := sha256.Sum256(buf)
		if pow.LeadingZeroNibbles(sum[:], difficulty) && (below < 0 || !pow.LeadingZeroNibbles(sum[:], below)) {
			return s, nil
		}
	}
}

// disclosedKey returns the api_key an answer carries, "" when none.
func disclosedKey(resp *driver.Response) string {
	var out struct {
		APIKey string `json:"api_key"`
	}
	_ = json.Unmarshal(resp.Body, &out)
	return out.APIKey
}

// quotaSpender is the embedded reference's control to spend an agent's
// session quota.
type quotaSpender interface{ SpendSessionQuota(apiKey string) bool }

// credentialed sets the Authorization header a credential variant names:
// the agent's own key ("" or "with its key"), none, an unknown key, the
// key under another scheme, or another verified agent's key.
func (w *world) credentialed(ctx context.Context, req driver.Request, how string) (driver.Request, error) {
	req.Header = map[string]string{}
	switch how {
	case "", "with its key":
		return w.authed(req), nil
	case "without credentials":
	case "with an unknown key":
		req.Header["Authorization"] = "Bearer aa_" + freshKey()
	case "with a non-Bearer key":
		req.Header["Authorization"] = "Basic " + w.id.APIKey
	case "with another agent's key":
		other, err := w.otherIdentity(ctx)
		if err != nil {
			return req, err
		}
		req.Header["Authorization"] = "Bearer " + other.APIKey
	default:
		return req, verdict.Errorf("unknown credential variant %q", how)
	}
	return req, nil
}
