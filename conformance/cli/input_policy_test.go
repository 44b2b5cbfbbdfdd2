package cli_test

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/reference/forge"
)

// refusal is the answer a route owes a body outside the input policy: a
// status and the protocol's machine-readable code.
type refusal struct {
	status int
	code   string
}

// writeRoute is one write route of a reference server with a valid body
// and the refusal each defect of it gets. member is one member of valid,
// repeated to make the duplicate-key body; limit is the route's body
// limit; code reads the code of an answer in the protocol's error shape.
type writeRoute struct {
	name, method, path string
	header             map[string]string
	valid, member      string
	limit              int
	code               func(map[string]any) string
	want               map[string]refusal
	state              string // a GET whose answer no refusal may change
}

// defects spoil a valid body: each is a body a lenient reader would take
// for something else.
var defects = map[string]func(valid, member string, limit int) string{
	"repeated key":    func(v, m string, _ int) string { return "{" + m + "," + v[1:] },
	"undocumented":    func(v, _ string, _ int) string { return v[:len(v)-1] + `,"kit_undocumented_field":1}` },
	"invalid UTF-8":   func(v, _ string, _ int) string { return v[:len(v)-1] + `,"note":"caf` + "\xe9" + `"}` },
	"not an object":   func(v, _ string, _ int) string { return "[" + v + "]" },
	"over the limit":  func(v, _ string, limit int) string { return v[:len(v)-1] + strings.Repeat(" ", limit) + "}" },
	"100x the bounds": func(v, _ string, _ int) string { return v[:len(v)-1] + `,"pad":[` + strings.Repeat("1,", 6400) + `1]}` },
	"20 000 items": func(v, _ string, _ int) string {
		return v[:len(v)-1] + `,"pad":[` + strings.Repeat("[],", 20_000) + `[]]}`
	},
}

func codeField(m map[string]any) string  { s, _ := m["code"].(string); return s }
func errorField(m map[string]any) string { s, _ := m["error"].(string); return s }
func forgeCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

// every gives one refusal to every defect.
func every(r refusal) map[string]refusal {
	out := map[string]refusal{}
	for d := range defects {
		out[d] = r
	}
	return out
}

// strict is the policy's own codes (FORGE): a 400 per defect, 413 past
// the limit or the bounds.
func strict(tooLarge refusal) map[string]refusal {
	return map[string]refusal{"repeated key": {400, "duplicate_key"}, "undocumented": {400, "unknown_field"},
		"invalid UTF-8": {400, "invalid_utf8"}, "not an object": {400, "not_an_object"}, "over the limit": {413, "payload_too_large"},
		"100x the bounds": {400, "unknown_field"}, "20 000 items": tooLarge}
}

// call sends one request to h and decodes a JSON object answer.
func call(h http.Handler, method, path, body string, header map[string]string) (int, map[string]any, []byte) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m, rec.Body.Bytes()
}

// policyRoutes sets up the identities the routes need on h and returns
// every write route of the bounty, share-exchange, FORGE and Pyyol
// reference servers.
func policyRoutes(t *testing.T, h http.Handler) []writeRoute {
	_, ch, _ := call(h, "GET", "/bounty/challenges", "", nil)
	cid := ch["active"].(map[string]any)["challenge_id"].(string)
	_, reg, _ := call(h, "POST", "/api/agents", `{"name":"policy-author"}`, nil)
	forgeKey := map[string]string{"Authorization": "Bearer " + reg["apiKey"].(string), "Idempotency-Key": "policy-key-0001"}
	_, minted, _ := call(h, "POST", "/v1/practice/agents", `{}`, nil)
	agent := map[string]string{"Authorization": "Bearer " + minted["token"].(string)}
	admin := map[string]string{"Authorization": "Bearer pt_admin_dev"}
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	pkg := strings.Replace(string(seed[0]), `{`, `{"id":"policy-level",`, 1)
	var probe map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(pkg), &probe), "the package stays one object")
	delete(probe, "id")
	raw, _ := json.Marshal(probe)
	pkg = `{"id":"policy-level",` + string(raw[1:])
	badRequest := every(refusal{400, "bad_request"})
	board := "/bounty/challenge/" + cid + "/peers"
	tiers := "/v1/admin/games/goofspiel/stakes"
	return []writeRoute{
		{name: "bounty register", method: "POST", path: "/bounty/register", valid: `{"reg_token":"t","nonce":"n"}`, member: `"nonce":"x"`, limit: 64 << 10, code: codeField, want: badRequest, state: board},
		{name: "bounty solve", method: "POST", path: "/bounty/challenge/" + cid + "/solve", valid: `{"agent_id":"a","share_index":2,"solution":{"x":1}}`, member: `"share_index":1`, limit: 64 << 10, code: codeField, want: badRequest, state: board},
		{name: "bounty combine", method: "POST", path: "/bounty/challenge/" + cid + "/combine", valid: `{"submissions":[]}`, member: `"submissions":[]`, limit: 64 << 10, code: codeField, want: badRequest, state: board},
		{name: "bounty peers", method: "POST", path: board, valid: `{"agent_id":"a","contact":"https://a.example"}`, member: `"agent_id":"b"`, limit: 64 << 10, code: codeField, want: badRequest, state: board},
		{name: "bounty profile", method: "POST", path: "/bounty/agents/profile", valid: `{"agent_id":"a","agent_secret":"s"}`, member: `"agent_id":"b"`, limit: 64 << 10, code: codeField, want: badRequest, state: board},
		{name: "share-exchange pull", method: "POST", path: "/share-exchange/", valid: `{"protocol":"abp-share-exchange/1","challenge_id":"` + cid + `","round":1,"requester":"a","agent_id":"b","share_index":2}`, member: `"requester":"c"`, limit: 64 << 10, code: codeField, want: badRequest, state: "/share-exchange/"},
		{name: "share-exchange offer", method: "POST", path: "/share-exchange/", valid: `{"protocol":"abp-share-exchange/1","kind":"offer","challenge_id":"` + cid + `","round":1,"agent_id":"a","to":"b","share_index":2,"share_hex":"00"}`, member: `"to":"c"`, limit: 64 << 10, code: codeField, want: badRequest, state: "/share-exchange/"},
		{name: "FORGE register", method: "POST", path: "/api/agents", valid: `{"name":"policy-other"}`, member: `"name":"x"`, limit: 64 << 10, code: forgeCode, want: strict(refusal{413, "payload_too_large"}), state: "/api/chain"},
		{name: "FORGE rename", method: "PATCH", path: "/api/agent", header: forgeKey, valid: `{"name":"policy-renamed"}`, member: `"name":"x"`, limit: 64 << 10, code: forgeCode, want: strict(refusal{413, "payload_too_large"}), state: "/api/chain"},
		{name: "FORGE session", method: "POST", path: "/api/sessions", header: forgeKey, valid: `{"levelId":"x"}`, member: `"levelId":"y"`, limit: 64 << 10, code: forgeCode,
			want: map[string]refusal{"repeated key": {400, "duplicate_key"}, "invalid UTF-8": {400, "invalid_utf8"}, "not an object": {400, "not_an_object"}, "over the limit": {413, "payload_too_large"}, "20 000 items": {413, "payload_too_large"}}, state: "/api/chain"},
		{name: "FORGE package", method: "POST", path: "/api/levels", header: forgeKey, valid: pkg, member: `"id":"policy-other"`, limit: 256 << 10, code: forgeCode,
			want: map[string]refusal{"repeated key": {400, "duplicate_key"}, "undocumented": {422, "SCHEMA_INVALID"}, "invalid UTF-8": {400, "invalid_utf8"},
				"not an object": {422, "SCHEMA_INVALID"}, "over the limit": {413, "payload_too_large"}, "100x the bounds": {422, "SCHEMA_INVALID"}, "20 000 items": {413, "payload_too_large"}}, state: "/api/chain"},
		{name: "Pyyol stake tiers", method: "PUT", path: tiers, header: admin, valid: `{"tiers":[{"key":"low","label":"Low","coins":100,"ordering":1,"enabled":true}]}`, member: `"tiers":[]`, limit: 64 << 10, code: errorField, want: every(refusal{400, "invalid_tiers"}), state: tiers},
		{name: "Pyyol limits", method: "PUT", path: "/v1/agents/" + minted["agent_id"].(string) + "/limits", header: agent, valid: `{"max_bid":5}`, member: `"max_bid":7`, limit: 64 << 10, code: errorField, want: every(refusal{400, "bad_request"}), state: tiers},
		{name: "Pyyol queue", method: "POST", path: "/v1/games/goofspiel/queue", header: agent, valid: `{"tier":"no-such-tier"}`, member: `"tier":"low"`, limit: 64 << 10, code: errorField, want: every(refusal{400, "bad_request"}), state: tiers},
	}
}

// TestEveryWriteRouteKeepsTheInputPolicy: every write route of the
// bounty, share-exchange, FORGE and Pyyol reference servers refuses a
// repeated key, an undocumented field, invalid UTF-8, a body that is no
// object, one past its limit and one far past the structural bounds, with
// the protocol's documented status and code, and changes nothing (Iyra
// and The Phantom Press: reference/iyra/server and features/*/input.feature).
func TestEveryWriteRouteKeepsTheInputPolicy(t *testing.T) {
	t.Parallel()
	h := cli.ServeMux(protocols.All(), 5, log.New(io.Discard, "", 0))
	for _, rt := range policyRoutes(t, h) {
		var stateHeader map[string]string
		if strings.HasPrefix(rt.state, "/v1/") {
			stateHeader = map[string]string{"Authorization": "Bearer pt_admin_dev"}
		}
		_, _, before := call(h, "GET", rt.state, "", stateHeader)
		for defect, want := range rt.want {
			body := defects[defect](rt.valid, rt.member, rt.limit)
			status, out, raw := call(h, rt.method, rt.path, body, rt.header)
			assert.Equal(t, want.status, status, "%s, %s: %s", rt.name, defect, firstBytes(raw))
			assert.Equal(t, want.code, rt.code(out), "%s, %s: %s", rt.name, defect, firstBytes(raw))
		}
		_, _, after := call(h, "GET", rt.state, "", stateHeader)
		assert.Equal(t, timeless(before), timeless(after), "%s: a refused body changed %s", rt.name, rt.state)
	}
}

// timeless decodes a state read without its clock readings (fields named
// *_s or *_at, which move with the server's clock, not with writes).
func timeless(raw []byte) any {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var scrub func(any) any
	scrub = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				if strings.HasSuffix(k, "_s") || strings.HasSuffix(k, "_at") {
					delete(t, k)
					continue
				}
				t[k] = scrub(x)
			}
		case []any:
			for i, x := range t {
				t[i] = scrub(x)
			}
		}
		return v
	}
	return scrub(v)
}

func firstBytes(b []byte) string { return string(b[:min(len(b), 200)]) }
