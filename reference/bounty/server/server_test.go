package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
)

func do(t testing.TB, h http.Handler, method, path, body string) (int, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, server.BasePath+path, bytes.NewBufferString(body)))
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

// TestMalformedBodiesAreRefusedWithACodeAndChangeNothing sends broken JSON
// to every write: each answers 400 bad_request and the state is the same.
func TestMalformedBodiesAreRefusedWithACodeAndChangeNothing(t *testing.T) {
	e := bounty.New(1, func() time.Time { return time.Unix(1_800_000_000, 0) })
	h := server.NewServer(e)
	_, reg := do(t, h, http.MethodGet, "/challenges", "")
	cid := reg["active"].(map[string]any)["challenge_id"].(string)
	_, before := do(t, h, http.MethodGet, "/challenge/"+cid+"/peers", "")
	for _, path := range []string{"/register", "/agents/profile", "/challenge/" + cid + "/solve", "/challenge/" + cid + "/combine", "/challenge/" + cid + "/peers"} {
		for _, body := range []string{"", "{", "[]", `{"agent_id": 7}`, string(bytes.Repeat([]byte("x"), 70_000))} {
			status, out := do(t, h, http.MethodPost, path, body)
			assert.Equal(t, http.StatusBadRequest, status, "%s %q", path, body[:min(len(body), 20)])
			assert.Equal(t, "bad_request", out["code"], "%s", path)
			assert.Equal(t, false, out["ok"], "%s", path)
		}
	}
	_, after := do(t, h, http.MethodGet, "/challenge/"+cid+"/peers", "")
	assert.Equal(t, before, after, "a refused write changes nothing")
	_, reg2 := do(t, h, http.MethodGet, "/challenges", "")
	assert.Equal(t, reg, reg2)
	status, out := do(t, h, http.MethodGet, "/no/such/path", "")
	require.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "not_found", out["code"])
}
