package iyra

import (
	"context"
	"encoding/json"
	"net/http"
	"path"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// createWith is a When step creating a session; the answer is kept,
// whatever its status, and a created session becomes the scenario's.
func (w *world) createWith(ctx context.Context, slug, key string, body any) error {
	w.lastKey = key
	return w.when(ctx, func() (*driver.Response, error) {
		resp, err := w.create(ctx, slug, key, body)
		if err == nil && resp.Status/100 == 2 && slug == Slug {
			if s, derr := decodeSession(resp); derr == nil && w.sess == nil {
				w.sess, w.key = s, key
			}
		}
		return resp, err
	})
}

// badKeys are Idempotency-Keys outside ^[A-Za-z0-9._:-]{8,128}$.
var badKeys = map[string]string{
	"missing":   "",
	"too-short": "k-1234x",
	"spaced":    "kit key with spaces",
	"too-long":  strings.Repeat("k", 129),
	// Characters outside the class at a valid length: punctuation the
	// class leaves out, and a letter outside ASCII (a \w or IsLetter
	// check takes both).
	"slashed":  "kit/key+with/slashes",
	"accented": "clé-de-session-kit",
}

// OtherGame is the contract's alternative game a reused key is sent to
// ($.alternatives); its version comes from its own assignment.
const OtherGame = "helios-relay"

// unassignedVersion is a version no assignment names.
const unassignedVersion = "xgv_000000000000000000000000"

// reuseBody returns the game and creation body standing for other: the
// contract's alternative game at the version its assignment names; the
// contract's preview version when the assignment names another, else an
// unassigned one; or, since the contract's body has no other field that
// tells two intended sessions apart, another kit variant.
func (w *world) reuseBody(ctx context.Context, other string) (string, map[string]any, error) {
	switch other {
	case "another game":
		v, err := w.otherGameVersion(ctx)
		return OtherGame, createBody(v, ""), err
	case "another version":
		if v := w.rolloutVersion(ctx); v != "" {
			return Slug, createBody(v, ""), nil
		}
		v := ContractVersion
		if v == w.id.Version {
			v = unassignedVersion
		}
		return Slug, createBody(v, ""), nil
	}
	return Slug, createBody(w.id.Version, otherVariant(w.sess.Variant)), nil
}

// rolloutVersion reads the game's assignment on the kit's rollout track
// (IYRA-REF-ROLLOUT: GET /store/{slug}/assignment?track=rollout), the
// reference's way to assign the agent a second version beside the
// session's. It answers "" when the target names no other version there
// (a deployment ignoring the track answers the same assignment), and the
// example then falls back to a version the target may refuse, skipping
// when it does.
func (w *world) rolloutVersion(ctx context.Context) string {
	resp, err := w.do(ctx, w.authed(driver.Request{Method: http.MethodGet, Path: "/store/" + Slug + "/assignment?track=rollout"}))
	if err != nil || resp.Status != http.StatusOK {
		return ""
	}
	var out struct {
		VersionID string `json:"version_id"`
	}
	if json.Unmarshal(resp.Body, &out) != nil || out.VersionID == "" || out.VersionID == w.id.Version {
		return ""
	}
	return out.VersionID
}

// otherGameVersion reads the version OtherGame's assignment names for the
// scenario's agent; a target without that game skips.
func (w *world) otherGameVersion(ctx context.Context) (string, error) {
	resp, err := w.do(ctx, w.authed(driver.Request{Method: http.MethodGet, Path: "/store/" + OtherGame + "/assignment"}))
	if err != nil {
		return "", err
	}
	var out struct {
		VersionID string `json:"version_id"`
	}
	_ = json.Unmarshal(resp.Body, &out)
	if resp.Status != http.StatusOK || out.VersionID == "" {
		return "", verdict.Skipf("the target assigns no version of %s (%d), so a key cannot be reused for another game", OtherGame, resp.Status)
	}
	return out.VersionID, nil
}

// otherVariant names a kit variant other than v.
func otherVariant(v string) string {
	for _, kv := range iyra.DefaultPack().Variants {
		if kv.ID != v {
			return kv.ID
		}
	}
	return ""
}

// lookUp is the When step querying /idempotency/status for key.
func (w *world) lookUp(ctx context.Context, key string) error {
	w.lastKey = key
	req := w.authed(driver.Request{Method: http.MethodGet, Path: "/idempotency/status"})
	req.Header["Idempotency-Key"] = key
	return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
}

// refusedBusy turns a rate limit or an outage (429, 503), the answer to
// a request that had to succeed, into a harness error: the contract
// documents both (IYRA-RATE-LIMIT, IYRA-STATUS-CODES), and neither says
// anything about the rule under test.
func (w *world) refusedBusy() error {
	if s := w.Last.Status; s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable {
		return verdict.Errorf("the target answered %d (rate limit or outage) where the scenario needed a success: %s", s, clip(w.Last.Body))
	}
	return nil
}

// statusSession finds the session an idempotency status answer names: its
// session_id, a nested session object, or the last segment of its
// state_url. The contract names no shape (IYRA-IDEMPOTENCY-STATUS).
func statusSession(body []byte) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	if id := str(m["session_id"]); id != "" {
		return id
	}
	if nested, ok := m["session"].(map[string]any); ok {
		if id := str(nested["session_id"]); id != "" {
			return id
		}
		if id := str(nested["id"]); id != "" {
			return id
		}
		m = nested
	}
	if u := str(m["state_url"]); u != "" {
		return path.Base(strings.TrimRight(u, "/"))
	}
	return ""
}

// sessionFields are the fields every session response carries
// (IYRA-SESSION-SHAPE).
var sessionFields = []string{"session_id", "state_url", "actions_url", "replay_url", "revision", "legal_actions", "observation", "status", "terminal"}

// observationKeys are play.initial_observation plus phase.
var observationKeys = []string{"allies", "archive_checked", "archive_testimony", "chapter", "collected_sources", "ending",
	"epilogue", "evidence", "harbor_checked", "harbor_testimony", "phase", "selected_claim", "signal", "spire_checked", "spire_fact", "trust"}
