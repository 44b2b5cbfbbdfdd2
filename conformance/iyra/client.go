package iyra

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// Slug is the game the runner plays; it is the only Iyra slug.
const Slug = "echoes-of-iyra"

// ContractVersion is the version the source contract describes. The
// assignment "may differ from this public preview during rollout", so the
// game rules (the catalogue's $.game.gameplay_contract rules) are only
// checked against a target that assigns this version.
const ContractVersion = "xgv_e3baba90b92558c7b5d8d598"

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
// scan them all, and every api_key it learned so that no later response
// may carry it again.
type client struct {
	env *suite.Env
	// plan is the run's quota planner (plan.go), fetched when the client
	// is made: a registration inside Shared.Once must not ask for it.
	plan   *quota.Planner
	id     *identity
	bodies [][]byte
	// headers are the header fields of the same answers: the truth
	// "never appears in any response", whatever part of it
	// (IYRA-VISIBILITY).
	headers []http.Header
	watch   []string
	// noVariant remembers that the target refused the variant field, so
	// later creations of the check do not send it again.
	noVariant bool
	// claimParam is select_claim's parameter name as the target declares
	// it ("" until learned: the kit's "claim").
	claimParam string
}

// do sends req through the driver and keeps the body for visibility scans.
// A response carrying a key the client already learned breaks
// IYRA-KEY-ONCE: the key "is disclosed once".
func (c *client) do(ctx context.Context, req driver.Request) (*driver.Response, error) {
	if err := c.spend(req); err != nil {
		return nil, err
	}
	resp, err := c.env.HTTP.Do(ctx, req)
	if err != nil {
		return resp, err
	}
	c.bodies = append(c.bodies, resp.Body)
	c.headers = append(c.headers, resp.Header)
	for _, k := range c.watch {
		if where := keyIn(resp, k); where != "" {
			return resp, verdict.Failf("IYRA-KEY-ONCE", "no response after the verification carries the api_key",
				"the api_key again", "%s %s answered %d with the key in its %s", req.Method, req.Path, resp.Status, where)
		}
	}
	return resp, nil
}

// keyIn names the part of resp carrying key: its body or one of its
// header fields, "" when none does. The key "is disclosed once" whatever
// part of an answer repeats it, so the headers are searched as the body
// is (IYRA-KEY-ONCE).
func keyIn(resp *driver.Response, key string) string {
	if bytes.Contains(resp.Body, []byte(key)) {
		return "body"
	}
	for name, values := range resp.Header {
		for _, v := range values {
			if strings.Contains(v, key) {
				return name + " header"
			}
		}
	}
	return ""
}

// learnKey registers a disclosed key: redacted from every report, and
// watched in every later response (IYRA-KEY-ONCE).
func (c *client) learnKey(key string) {
	if key == "" {
		return
	}
	c.env.HTTP.Secrets().Add(key)
	if !slices.Contains(c.watch, key) {
		c.watch = append(c.watch, key)
	}
}

// note records a soft finding: a REFERENCE rule the target departs from,
// which warns without stopping the check.
func (c *client) note(rule string, expected, observed any, detail string, args ...any) {
	if rec := c.env.HTTP.Recorder(); rec != nil {
		rec.Finding(verdict.Failf(rule, expected, observed, detail, args...))
	}
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

// errVariantRefused is newSession's answer when the target refuses the
// kit's optional variant field (IYRA-VARIANTS): a certain refusal of a
// REFERENCE choice, after which the caller may skip or create without it.
var errVariantRefused = verdict.Skipf("the target refuses the optional variant field at session creation (IYRA-VARIANTS)")

// newSession creates a session that must succeed: setup for a scenario. A
// refusal of a creation naming a variant is errVariantRefused.
func (c *client) newSession(ctx context.Context, variant string) (*sessionDoc, string, error) {
	key := freshKey()
	resp, err := c.create(ctx, Slug, key, createBody(c.id.Version, variant))
	if err != nil {
		return nil, "", err
	}
	if resp.Status == http.StatusTooManyRequests || resp.Status == http.StatusServiceUnavailable {
		return nil, "", verdict.Errorf("the target refused a new session with %d (quota): %s", resp.Status, clip(resp.Body))
	}
	if variant != "" && resp.Status/100 == 4 {
		c.note("IYRA-VARIANTS", "a session of variant "+variant, resp.Status, "creation with the variant field: %s", clip(resp.Body))
		return nil, "", errVariantRefused
	}
	if resp.Status/100 != 2 {
		return nil, "", verdict.Failf("IYRA-SESSION-SHAPE", "201 with a session", resp.Status, "creating a session: %s", clip(resp.Body))
	}
	s, err := decodeSession(resp)
	return s, key, err
}

// anySession creates a session, of variant if the target accepts the
// field and of its own choice otherwise: the refusal was certain, so the
// second creation is a new request, not a blind retry.
func (c *client) anySession(ctx context.Context, variant string) (*sessionDoc, string, error) {
	if c.noVariant {
		variant = ""
	}
	s, key, err := c.newSession(ctx, variant)
	if err == errVariantRefused {
		c.noVariant = true
		return c.newSession(ctx, "")
	}
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
	s.liftSummary(resp.Body)
	return &s, nil
}

// liftSummary reads outcome and score wherever IYRA-TERMINAL-SUMMARY lets
// them sit (the contract names the fields, not their place): a target that
// keeps them in its observation or a summary object is read as one that
// keeps them at the top level.
func (s *sessionDoc) liftSummary(body []byte) {
	if s.Outcome != "" && s.Score != nil {
		return
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return
	}
	for _, h := range summaryHolders[1:] {
		var in struct {
			Outcome string `json:"outcome"`
			Score   *int   `json:"score"`
		}
		if raw, ok := m[h]; !ok || json.Unmarshal(raw, &in) != nil {
			continue
		}
		if s.Outcome == "" {
			s.Outcome = in.Outcome
		}
		if s.Score == nil {
			s.Score = in.Score
		}
	}
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

// envelope builds the {revision, action} body for session s. The contract
// names the parameters of investigate (site) and ally (faction) but not
// select_claim's: the client sends the name the target's own legal_actions
// declare ("claim", the kit's choice, when they declare none).
func (c *client) envelope(s *sessionDoc, rev int, a iyra.Action) map[string]any {
	c.learnParams(s)
	return map[string]any{"revision": rev, "action": c.wire(a)}
}

// learnParams reads select_claim's parameter name from s's legal_actions.
func (c *client) learnParams(s *sessionDoc) {
	if s == nil {
		return
	}
	for _, la := range s.LegalActions {
		if la.Type != iyra.TypeSelectClaim || len(la.Parameters) != 1 {
			continue
		}
		for name := range la.Parameters {
			c.claimParam = name
		}
	}
}

// claimName is the name select_claim's parameter goes by on the target.
func (c *client) claimName() string {
	if c.claimParam == "" {
		return "claim"
	}
	return c.claimParam
}

// wire spells action a as the target expects it.
func (c *client) wire(a iyra.Action) any {
	if a.Claim == "" || c.claimName() == "claim" {
		return a
	}
	m := map[string]any{"type": a.Type, c.claimName(): a.Claim}
	if a.Site != "" {
		m["site"] = a.Site
	}
	if a.Faction != "" {
		m["faction"] = a.Faction
	}
	return m
}

// fromWire reads an action the target echoes (a replay entry) back into
// the kit's form, whatever name its claim parameter goes by.
func (c *client) fromWire(raw json.RawMessage) iyra.Action {
	var a iyra.Action
	_ = json.Unmarshal(raw, &a)
	if a.Claim == "" && c.claimName() != "claim" {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		a.Claim, _ = m[c.claimName()].(string)
	}
	return a
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
