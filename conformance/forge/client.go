package forge

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// agent is one registered practice identity the runner acts as.
type agent struct {
	ID   string
	Name string
	Key  string
}

// client sends the runner's requests, keeps every answer body for the
// visibility checks, and watches for any key it learned coming back.
type client struct {
	env    *suite.Env
	bodies [][]byte
	keys   []string
	solved []solvedLevel // the levels clear cleared, for the expected-output search
}

// solvedLevel is a level clear cleared: the outputs judged correct (the
// level's expected challenge outputs, FORGE-PRIVATE-SERVER-ONLY) and the
// answers from its session's opening to just before its submission.
type solvedLevel struct {
	position int
	outputs  []dsl.Value
	from, to int // w.bodies[from:to]
}

// code returns a refusal's error code, "" when the body has none. The
// contract names codes (NICKNAME_TAKEN, IDEMPOTENCY_KEY_REUSED) but not
// where a body carries them, so every usual place is read: the kit's
// {error: {code}} (FORGE-REF-ERROR-CODES), a top-level code or error_code,
// or an error that is the code itself.
func code(resp *driver.Response) string {
	var e map[string]json.RawMessage
	if json.Unmarshal(resp.Body, &e) != nil {
		return ""
	}
	var nested struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(e["error"], &nested) == nil && nested.Code != "" {
		return nested.Code
	}
	for _, k := range []string{"code", "error_code", "errorCode", "error"} {
		var c string
		if json.Unmarshal(e[k], &c) == nil && codeLike.MatchString(c) {
			return c
		}
	}
	return ""
}

// codeLike is the shape of an error code: upper-case words joined by
// underscores, as every code the contract names is.
var codeLike = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)

// do sends req as a (or anonymously when a is nil). An answer carrying a
// key after its registration breaks FORGE-KEY-ONCE.
func (c *client) do(ctx context.Context, a *agent, req driver.Request) (*driver.Response, error) {
	if req.Header == nil {
		req.Header = map[string]string{}
	}
	if a != nil {
		req.Header["Authorization"] = "Bearer " + a.Key
	}
	resp, err := c.env.HTTP.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	return c.keep(req, resp)
}

// keep files an answer's body for the visibility checks and fails one
// that carries a key after its registration (FORGE-KEY-ONCE), in its body
// or in any header: a cookie or an echo header hands the key back as
// surely as a field does. It is not safe for concurrent use: a parallel
// burst keeps its answers afterwards.
func (c *client) keep(req driver.Request, resp *driver.Response) (*driver.Response, error) {
	c.bodies = append(c.bodies, resp.Body)
	for _, k := range c.keys {
		where := carriesKey(resp, k)
		if where == "" {
			continue
		}
		if where == "body" && req.Method == http.MethodPatch && req.Path == "/api/agent" {
			// The rename answer has its own rule, the more telling name.
			return resp, verdict.Failf("FORGE-PATCH-NO-KEY", "no apiKey in the rename answer", "the apiKey again",
				"PATCH /api/agent answered %d with a key in its body", resp.Status)
		}
		return resp, verdict.Failf("FORGE-KEY-ONCE", "no answer after the registration carries the apiKey",
			"the apiKey again", "%s %s answered %d with a key in its %s", req.Method, req.Path, resp.Status, where)
	}
	return resp, nil
}

// carriesKey names where an answer carries key: "body", "<Name> header",
// or "" when it does not (FORGE-KEY-ONCE, FORGE-KEY-UNRECOVERABLE). The
// seed's "the plaintext key is returned once" covers every part of an
// answer, its headers too.
func carriesKey(resp *driver.Response, key string) string {
	if bytes.Contains(resp.Body, []byte(key)) {
		return "body"
	}
	names := make([]string, 0, len(resp.Header))
	for name := range resp.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range resp.Header[name] {
			if strings.Contains(v, key) {
				return name + " header"
			}
		}
	}
	return ""
}

// get reads path and decodes a 200 answer into v.
func (c *client) get(ctx context.Context, a *agent, path, rule string, v any) (*driver.Response, error) {
	resp, err := c.do(ctx, a, driver.Request{Method: http.MethodGet, Path: path})
	if err != nil {
		return nil, err
	}
	if resp.Status == http.StatusUnauthorized && a != nil {
		// A fresh key sent as the contract's Bearer token was refused.
		return resp, verdict.Failf("FORGE-BEARER", "the agent's key accepted as a Bearer token", resp.Status,
			"GET %s: %s", path, c.env.HTTP.Secrets().Clip(resp.Body))
	}
	if resp.Status != http.StatusOK {
		return resp, verdict.Failf(rule, "200", resp.Status, "GET %s: %s", path, c.env.HTTP.Secrets().Clip(resp.Body))
	}
	if v != nil {
		return resp, resp.Decode(rule, v)
	}
	return resp, nil
}

// note records a soft finding (a REFERENCE choice the target departs from).
func (c *client) note(rule string, expected, observed any, detail string, args ...any) {
	if rec := c.env.HTTP.Recorder(); rec != nil {
		rec.Finding(verdict.Failf(rule, expected, observed, detail, args...))
	}
}

// register creates an agent with a nickname unique to this run.
func (c *client) register(ctx context.Context, label string) (*agent, error) {
	name := fmt.Sprintf("kit-%s-%s", label, randomHex(4))
	resp, err := c.do(ctx, nil, driver.Request{Method: http.MethodPost, Path: "/api/agents", JSON: map[string]string{"name": name}})
	if err != nil {
		return nil, err
	}
	if resp.Status/100 != 2 {
		return nil, verdict.Failf("FORGE-REGISTER", "a 2xx registration", resp.Status, "POST /api/agents: %s", c.env.HTTP.Secrets().Clip(resp.Body))
	}
	var reg struct {
		AgentID string `json:"agentId"`
		Name    string `json:"name"`
		APIKey  string `json:"apiKey"`
	}
	if err := resp.Decode("FORGE-REGISTER", &reg); err != nil {
		return nil, err
	}
	if reg.APIKey == "" {
		return nil, verdict.Failf("FORGE-KEY-ONCE", "an apiKey in the registration", "none", "POST /api/agents answered without apiKey")
	}
	c.env.HTTP.Secrets().Add(reg.APIKey)
	c.keys = append(c.keys, reg.APIKey)
	return &agent{ID: reg.AgentID, Name: name, Key: reg.APIKey}, nil
}

// chainLength reads GET /api/chain's length.
func (c *client) chainLength(ctx context.Context) (int, error) {
	var s struct {
		Length *int `json:"length"`
	}
	if _, err := c.get(ctx, nil, "/api/chain", "FORGE-CHAIN-SUMMARY", &s); err != nil {
		return 0, err
	}
	if s.Length == nil {
		return 0, verdict.Failf("FORGE-CHAIN-SUMMARY", "a chain length", "none", "GET /api/chain has no length")
	}
	return *s.Length, nil
}

// forbiddenKeys are fields that carry private material or the legacy
// difficulty; no answer a solver sees may hold them.
var forbiddenKeys = []string{"oracle", "hiddenInputs", "private", "difficulty", "expectedOutputs", "validation"}

// findKey returns the first forbidden key anywhere in a JSON document.
func findKey(v any, keys []string) string {
	return keyWhere(v, func(k string) bool {
		return slices.ContainsFunc(keys, func(f string) bool { return strings.EqualFold(k, f) })
	})
}

// difficultyKey returns a key anywhere in a JSON document that names the
// legacy difficulty as one of its words (difficulty, currentDifficulty,
// difficulty_level; FORGE-LEGACY-DIFFICULTY-HIDDEN), "" when there is
// none: the rule forbids the value under any name, and round 7 planted a
// currentDifficulty the exact name missed. A key that also names a tier
// is left to tierInLevel (FORGE-NO-DIFFICULTY-TIERS).
func difficultyKey(v any) string {
	return keyWhere(v, func(k string) bool {
		words := keyWords(k)
		return slices.Contains(words, "difficulty") && !slices.Contains(words, "tier") && !slices.Contains(words, "tiers")
	})
}

// keyWhere returns the first key anywhere in a JSON document that match
// accepts, "" when there is none.
func keyWhere(v any, match func(string) bool) string {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if match(k) {
				return k
			}
			if found := keyWhere(c, match); found != "" {
				return found
			}
		}
	case []any:
		for _, c := range x {
			if found := keyWhere(c, match); found != "" {
				return found
			}
		}
	}
	return ""
}

// tierInLevel returns a key naming a tier (difficultyTier, tier, tiers;
// not atFrontier) in any object of a JSON document that describes a level
// (one with a position, levelId, title or rules), "" when there is none:
// an account's tier elsewhere is no difficulty tier.
func tierInLevel(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if describesLevel(x) {
			for k := range x {
				for _, part := range keyWords(k) {
					if part == "tier" || part == "tiers" {
						return k
					}
				}
			}
		}
		for _, c := range x {
			if found := tierInLevel(c); found != "" {
				return found
			}
		}
	case []any:
		for _, c := range x {
			if found := tierInLevel(c); found != "" {
				return found
			}
		}
	}
	return ""
}

func describesLevel(o map[string]any) bool {
	for _, k := range []string{"position", "levelId", "title", "rules"} {
		if _, ok := o[k]; ok {
			return true
		}
	}
	return false
}

// keyWords splits a JSON key into its lower-case words.
func keyWords(k string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	for _, r := range k {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
		case unicode.IsUpper(r):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// randomHex returns n random bytes in hex, for nicknames, ids and keys
// that must not collide with earlier runs on a live deployment.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
