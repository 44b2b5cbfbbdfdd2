package iyra

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// Slug is the game the runner plays; it is the only Iyra slug.
const Slug = "echoes-of-iyra"

// identity is one verified agent: reused across scenarios through
// env.Shared so a live deployment is asked for one registration per run.
type identity struct {
	AgentID string
	APIKey  string
	Version string
}

// sessionDoc is a session response as the runner reads it. Pointers tell a
// missing field from a zero one.
type sessionDoc struct {
	SessionID    string             `json:"session_id"`
	Variant      string             `json:"variant"`
	StateURL     string             `json:"state_url"`
	ActionsURL   string             `json:"actions_url"`
	ReplayURL    string             `json:"replay_url"`
	Revision     *int               `json:"revision"`
	Status       string             `json:"status"`
	Terminal     *bool              `json:"terminal"`
	Outcome      string             `json:"outcome"`
	Score        *int               `json:"score"`
	Observation  iyra.Observation   `json:"observation"`
	LegalActions []iyra.LegalAction `json:"legal_actions"`
	Progress     *iyra.Progress     `json:"progress"`
}

// rev returns the revision, -1 when the target sent none.
func (s *sessionDoc) rev() int {
	if s == nil || s.Revision == nil {
		return -1
	}
	return *s.Revision
}

// client wraps the driver with the Iyra calls every step and machine
// needs. It remembers every response body it saw so visibility checks can
// scan them all.
type client struct {
	env    *suite.Env
	id     *identity
	bodies [][]byte
}

// do sends req through the driver and keeps the body for visibility scans.
func (c *client) do(ctx context.Context, req driver.Request) (*driver.Response, error) {
	resp, err := c.env.HTTP.Do(ctx, req)
	if err == nil {
		c.bodies = append(c.bodies, resp.Body)
	}
	return resp, err
}

// authed adds the Bearer header of the client's identity.
func (c *client) authed(req driver.Request) driver.Request {
	if req.Header == nil {
		req.Header = map[string]string{}
	}
	if c.id != nil {
		req.Header["Authorization"] = "Bearer " + c.id.APIKey
	}
	return req
}

// rel turns a URL the target returned (absolute, or a full path under the
// base path) into a path relative to the driver's base URL.
func (c *client) rel(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	p := u.Path
	if base, err := url.Parse(c.env.HTTP.BaseURL()); err == nil && base.Path != "" && strings.HasPrefix(p, base.Path) {
		p = strings.TrimPrefix(p, base.Path)
	} else if i := strings.Index(p, "/api/v5"); i >= 0 {
		p = p[i+len("/api/v5"):]
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// freshKey returns a new Idempotency-Key. It is random, not seeded: a
// repeated run against a live target must never replay an old session.
func freshKey() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "kit-" + hex.EncodeToString(b[:])
}

// createBody is the session creation body; variant is the kit's optional
// selection field (IYRA-VARIANTS).
func createBody(version, variant string) map[string]any {
	body := map[string]any{"ready_to_act": true, "accepted_version_id": version}
	if variant != "" {
		body["variant"] = variant
	}
	return body
}

// create posts a session creation for slug with key ("" sends none).
func (c *client) create(ctx context.Context, slug, key string, body any) (*driver.Response, error) {
	req := c.authed(driver.Request{Method: http.MethodPost, Path: "/store/" + slug + "/sessions", JSON: body,
		Allow: []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}})
	if key != "" {
		req.Header["Idempotency-Key"] = key
	}
	return c.do(ctx, req)
}

// newSession creates a session that must succeed: setup for a scenario.
func (c *client) newSession(ctx context.Context, variant string) (*sessionDoc, string, error) {
	key := freshKey()
	resp, err := c.create(ctx, Slug, key, createBody(c.id.Version, variant))
	if err != nil {
		return nil, "", err
	}
	if resp.Status == http.StatusTooManyRequests || resp.Status == http.StatusServiceUnavailable {
		return nil, "", verdict.Errorf("the target refused a new session with %d (quota): %s", resp.Status, clip(resp.Body))
	}
	if resp.Status/100 != 2 {
		return nil, "", verdict.Failf("IYRA-SESSION-SHAPE", "201 with a session", resp.Status, "creating a session: %s", clip(resp.Body))
	}
	s, err := decodeSession(resp)
	return s, key, err
}

// decodeSession decodes a session response and checks its links exist, so
// later steps can follow them (IYRA-SESSION-SHAPE).
func decodeSession(resp *driver.Response) (*sessionDoc, error) {
	var s sessionDoc
	if err := resp.Decode("IYRA-SESSION-SHAPE", &s); err != nil {
		return nil, err
	}
	if s.SessionID == "" || s.StateURL == "" || s.ActionsURL == "" || s.Revision == nil {
		return nil, verdict.Failf("IYRA-SESSION-SHAPE", "session_id, state_url, actions_url and revision", clip(resp.Body), "status %d", resp.Status)
	}
	return &s, nil
}

// read GETs the authoritative state of s.
func (c *client) read(ctx context.Context, s *sessionDoc) (*driver.Response, *sessionDoc, error) {
	resp, err := c.do(ctx, c.authed(driver.Request{Method: http.MethodGet, Path: c.rel(s.StateURL)}))
	if err != nil {
		return nil, nil, err
	}
	if resp.Status != http.StatusOK {
		return resp, nil, verdict.Failf("IYRA-RECOVERY-READ", "200 with the session state", resp.Status, "reading %s: %s", s.StateURL, clip(resp.Body))
	}
	doc, err := decodeSession(resp)
	return resp, doc, err
}

// submit posts a raw action envelope to s's actions_url.
func (c *client) submit(ctx context.Context, s *sessionDoc, body any, raw []byte) (*driver.Response, error) {
	return c.do(ctx, c.authed(driver.Request{Method: http.MethodPost, Path: c.rel(s.ActionsURL), JSON: body, Raw: raw}))
}

// envelope builds the {revision, action} body.
func envelope(rev int, a iyra.Action) map[string]any {
	return map[string]any{"revision": rev, "action": a}
}

// clip shortens a body for a failure message.
func clip(b []byte) string {
	const max = 400
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// jsonObject decodes a body into a generic object or fails rule.
func jsonObject(rule string, resp *driver.Response) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(resp.Body, &m); err != nil || m == nil {
		return nil, verdict.Failf(rule, "a JSON object body", clip(resp.Body), "status %d", resp.Status)
	}
	return m, nil
}
