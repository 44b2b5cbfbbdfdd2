package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// FuzzRequestBodies: no body posted to any of the bounty's writes
// (register, profile, solve, combine, peers) makes the server panic or
// answer 5xx; every answer is a JSON object and every refusal carries
// ok:false and a code.
func FuzzRequestBodies(f *testing.F) {
	e := bounty.New(1, func() time.Time { return time.Unix(1_800_000_000, 0) })
	h := server.NewServer(e)
	_, reg := do(f, h, http.MethodGet, "/challenges", "")
	cid := reg["active"].(map[string]any)["challenge_id"].(string)
	paths := []string{"/register", "/agents/profile", "/challenge/" + cid + "/solve", "/challenge/" + cid + "/combine", "/challenge/" + cid + "/peers"}
	for i, body := range []string{`{"reg_token":"t","nonce":"1"}`, `{"agent_id":"a","agent_secret":"s","name":"nm"}`,
		`{"agent_id":"a","share_index":2,"solution":{"x":"5"}}`, `{"submissions":[{"agent_id":"a","share_index":1,"share_hex":"00"}]}`,
		`{"agent_id":"a","contact":"https://x.example/","working_on":3}`, `{"agent_id":"a","remove":true}`, `{"share_index":1e999}`, `[]`} {
		f.Add(uint8(i), []byte(body))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := paths[int(which)%len(paths)]
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, server.BasePath+path, bytes.NewReader(body)))
		if rec.Code >= 500 {
			t.Fatalf("POST %s %q answered %d: %s", path, body, rec.Code, rec.Body.String())
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("POST %s %q answered a body that is no JSON object: %q", path, body, rec.Body.String())
		}
		if rec.Code >= 400 && (out["ok"] != false || out["code"] == nil) {
			t.Fatalf("POST %s %q refused without ok:false and a code: %s", path, body, rec.Body.String())
		}
	})
}
