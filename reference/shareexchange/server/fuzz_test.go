package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/skeleton"
)

// FuzzResponderBodies: no body posted to the responder (a pull, an offer,
// the control surface) makes it panic or answer 5xx, and every answer is a
// JSON object; every refusal names a code.
func FuzzResponderBodies(f *testing.F) {
	clock := skeleton.NewClock(time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC))
	srv := New(skeleton.Config{Seed: 1, Now: clock.Now})
	for i, body := range []string{
		`{"protocol":"abp-share-exchange/1","challenge_id":"chal-1","round":1,"requester":"a","agent_id":"b","share_index":1}`,
		`{"protocol":"abp-share-exchange/1","kind":"offer","challenge_id":"chal-1","round":1,"agent_id":"a","to":"b","share_index":2,"share_hex":"00"}`,
		`{"agent_id":"a","shares":[1]}`, `{}`, `[]`, `{"protocol":"abp-share-exchange/1","share_index":1e400}`,
		`{"protocol":"abp-share-exchange/1","protocol":"x"}`, "\xff\xfe",
	} {
		f.Add(uint8(i), []byte(body))
	}
	paths := []string{BasePath + "/", BasePath + "/control/adopt", BasePath + PlatformPath + "/register"}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := paths[int(which)%len(paths)]
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body)))
		if rec.Code >= 500 {
			t.Fatalf("POST %s %q answered %d: %s", path, body, rec.Code, rec.Body.String())
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("POST %s %q answered a body that is no JSON object: %q", path, body, rec.Body.String())
		}
		if rec.Code >= 400 {
			if _, ok := out["code"]; !ok {
				if _, ok := out["error"]; !ok {
					t.Fatalf("POST %s %q refused without a code: %s", path, body, rec.Body.String())
				}
			}
		}
	})
}
